/*
 * Protocol constants of the bgbridge indicator unit, shared by the firmware (C) and the host
 * (firmware_link/protocol.py reads the #define lines of this file, so each number lives here only).
 * The protocol itself is described in ../PROTOCOL.md.
 */
#ifndef BGLED_PROTOCOL_H
#define BGLED_PROTOCOL_H

#define PROTO_VERSION 1          /* bumped on any incompatible change of PROTOCOL.md */
#define FIRMWARE_VERSION "1.0"
#define DEVICE_NAME "bgled"
#define BAUD_RATE 115200

#define FRAME_MAX 64             /* longest frame, start character to newline inclusive */
#define RX_RING 128              /* device receive buffer; the host keeps one frame in flight */
#define TX_RING 128
#define EVENT_QUEUE 16           /* device events kept until the host acknowledges them */

#define HEARTBEAT_MS 1000        /* device heartbeat period */
#define EVENT_RETRY_MS 200       /* an unacknowledged event is sent again after this long */
#define HOST_TIMEOUT_MS 3000     /* no valid host frame for this long: link LED off */
#define HOST_PING_MS 1000        /* the host pings when it has sent nothing for this long */

#define DEBOUNCE_SAMPLE_MS 2     /* buttons are sampled this often ... */
#define DEBOUNCE_SAMPLES 4       /* ... and must read the same this many times in a row */

#define CUBE_LOG2_MAX 15         /* cube values 1..32768, as in gnubg's match ID (4 bits) */
#define BRIGHTNESS_DEFAULT 128

#endif
