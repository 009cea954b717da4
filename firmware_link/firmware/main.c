/*
 * bgbridge indicator unit: firmware for the ATmega328P (16 MHz), plain avr-libc.
 *
 * Shows the doubling cube (value and owner), whose turn it is, the dice and the verdict on the
 * last move on LEDs behind 74HC595 shift registers, and reports debounced button presses.
 * Speaks the framed text protocol of ../PROTOCOL.md at 115200 baud on UART0.
 *
 * Structure: interrupts only move bytes (UART rings), keep time and debounce buttons; the main
 * loop parses frames, acts, sends replies/events/heartbeats and sleeps (idle mode) when there is
 * nothing to do.  A watchdog resets the chip if the main loop stops running.
 *
 * The link memory (host session, last request and its reply, unacknowledged events) lives in
 * .noinit RAM guarded by a CRC: it survives an external or watchdog reset (RAM keeps its
 * contents while powered), so a request retried across a reset is still not done twice and
 * pending button events are still delivered.  After power-up the CRC fails and it starts empty.
 */
#include <avr/eeprom.h>
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <avr/wdt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <util/atomic.h>
#include <util/crc16.h>

#include "protocol.h"
#include "wiring.h"

#if (RX_RING & (RX_RING - 1)) || (TX_RING & (TX_RING - 1))
#error ring sizes must be powers of two
#endif

/* ---------------------------------------------------------------- reset cause */

/* The watchdog stays enabled after a watchdog reset: turn it off before main() runs.  Optiboot
 * (the Uno/Nano bootloader) clears MCUSR itself and hands its old value over in r2. */
static uint8_t reset_cause __attribute__((section(".noinit")));
void early_init(void) __attribute__((naked, used, section(".init3")));
void early_init(void)
{
    uint8_t from_bootloader;
    __asm__ volatile("mov %0, r2" : "=r"(from_bootloader));
    reset_cause = MCUSR ? MCUSR : from_bootloader;
    MCUSR = 0;
    wdt_disable();
}

/* ---------------------------------------------------------------- time and buttons */

static volatile uint32_t millis_count;
static volatile uint8_t button_ring[8];
static volatile uint8_t button_head, button_tail;

static uint32_t millis(void)
{
    uint32_t now;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { now = millis_count; }
    return now;
}

/* 1 ms tick from Timer2; every DEBOUNCE_SAMPLE_MS the buttons are sampled and a press is
 * registered when a button has read "down" DEBOUNCE_SAMPLES times in a row. */
ISR(TIMER2_COMPA_vect)
{
    static uint8_t stable = (1 << BUTTON_COUNT) - 1; /* pull-ups: released reads 1 */
    static uint8_t count[BUTTON_COUNT];
    static uint8_t sample_timer;

    millis_count++;
    if (++sample_timer < DEBOUNCE_SAMPLE_MS)
        return;
    sample_timer = 0;
    uint8_t raw = PINC & ((1 << BUTTON_COUNT) - 1);
    for (uint8_t i = 0; i < BUTTON_COUNT; i++) {
        uint8_t bit = 1 << i;
        if ((raw ^ stable) & bit) {
            if (++count[i] >= DEBOUNCE_SAMPLES) {
                stable ^= bit;
                count[i] = 0;
                if (!(stable & bit)) {
                    uint8_t next = (button_head + 1) & 7;
                    if (next != button_tail) {
                        button_ring[button_head] = i;
                        button_head = next;
                    }
                }
            }
        } else {
            count[i] = 0;
        }
    }
}

/* ---------------------------------------------------------------- UART */

static volatile uint8_t rx_ring[RX_RING];
static volatile uint8_t rx_head, rx_tail;
static volatile uint16_t rx_overruns;
static volatile uint8_t tx_ring[TX_RING];
static volatile uint8_t tx_head, tx_tail;

ISR(USART_RX_vect)
{
    uint8_t status = UCSR0A;
    uint8_t c = UDR0;
    uint8_t next = (rx_head + 1) & (RX_RING - 1);
    if ((status & _BV(DOR0)) || next == rx_tail) {
        rx_overruns++;
        if (next == rx_tail)
            return;
    }
    rx_ring[rx_head] = c;
    rx_head = next;
}

ISR(USART_UDRE_vect)
{
    if (tx_head == tx_tail) {
        UCSR0B &= ~_BV(UDRIE0);
        return;
    }
    UDR0 = tx_ring[tx_tail];
    tx_tail = (tx_tail + 1) & (TX_RING - 1);
}

static void uart_init(void)
{
    /* simavr computes the byte time when UBRR is written: mode bits first. */
    UCSR0A = _BV(U2X0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00); /* 8N1 */
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
    UBRR0 = (F_CPU / 8 / BAUD_RATE) - 1; /* 16 with U2X: 117647 baud, 2.1% fast */
}

static void tx_byte(uint8_t c)
{
    uint8_t next = (tx_head + 1) & (TX_RING - 1);
    while (next == tx_tail)
        wdt_reset(); /* the UDRE interrupt drains the ring */
    tx_ring[tx_head] = c;
    tx_head = next;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { UCSR0B |= _BV(UDRIE0); }
}

static const char hex_digits[] = "0123456789ABCDEF";

/* Sends start..end-of-body and appends "*CRC\n" (CRC-16/CCITT-FALSE of the bytes sent). */
static void send_frame(const char *text, uint8_t len)
{
    uint16_t crc = 0xFFFF;
    for (uint8_t i = 0; i < len; i++) {
        crc = _crc_xmodem_update(crc, (uint8_t)text[i]);
        tx_byte((uint8_t)text[i]);
    }
    tx_byte('*');
    for (int8_t shift = 12; shift >= 0; shift -= 4)
        tx_byte(hex_digits[(crc >> shift) & 0xF]);
    tx_byte('\n');
}

/* ---------------------------------------------------------------- small text helpers */

typedef struct {
    char text[FRAME_MAX];
    uint8_t len;
} line_t;

static void put_char(line_t *l, char c)
{
    if (l->len < FRAME_MAX - 6) /* room for "*CRC\n" */
        l->text[l->len++] = c;
}

static void put_str(line_t *l, const char *s)
{
    while (*s)
        put_char(l, *s++);
}

static void put_uint(line_t *l, uint32_t v)
{
    char digits[10];
    uint8_t n = 0;
    do {
        digits[n++] = '0' + v % 10;
        v /= 10;
    } while (v);
    while (n)
        put_char(l, digits[--n]);
}

static void put_hex2(line_t *l, uint8_t v)
{
    put_char(l, hex_digits[v >> 4]);
    put_char(l, hex_digits[v & 0xF]);
}

static int8_t hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* Parses a whole token as an unsigned decimal number <= max; false if it is not one. */
static bool parse_uint(const char *s, uint32_t max, uint32_t *out)
{
    uint32_t v = 0;
    if (!*s)
        return false;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return false;
        v = v * 10 + (*s - '0');
        if (v > max)
            return false;
    }
    *out = v;
    return true;
}

static bool parse_hex(const char *s, uint8_t digits, uint16_t *out)
{
    uint16_t v = 0;
    for (uint8_t i = 0; i < digits; i++) {
        int8_t d = hex_value(s[i]);
        if (d < 0)
            return false;
        v = (v << 4) | d;
    }
    if (s[digits])
        return false;
    *out = v;
    return true;
}

/* ---------------------------------------------------------------- link memory (.noinit) */

enum { EV_BOOT, EV_BUTTON, EV_ERR_RX, EV_ERR_LOST };

typedef struct {
    uint8_t seq, kind;
    uint16_t arg;  /* button index, error count, or boot count */
    uint8_t cause; /* boot events: MCUSR bits */
} event_t;

#define PERSIST_MAGIC 0xB61Eu /* changes with the layout of persist_t */

typedef struct {
    uint16_t magic;
    uint16_t session;        /* host session id from the last hello */
    uint8_t has_last, last_seq;
    line_t last_reply;       /* reply to last_seq, sent again if that request is repeated */
    uint16_t acted, dups;    /* requests acted on / answered again, this host session */
    uint16_t lost;           /* button presses dropped because the event queue was full */
    uint8_t next_evseq, ev_head, ev_count;
    event_t ev[EVENT_QUEUE];
    uint16_t crc;
} persist_t;

static persist_t mem __attribute__((section(".noinit")));

static uint16_t persist_crc(void)
{
    uint16_t crc = 0xFFFF;
    const uint8_t *p = (const uint8_t *)&mem;
    for (uint16_t i = 0; i < offsetof(persist_t, crc); i++)
        crc = _crc_xmodem_update(crc, p[i]);
    return crc;
}

static void persist_seal(void) { mem.crc = persist_crc(); }

static void persist_restore(void)
{
    if (mem.magic == PERSIST_MAGIC && mem.crc == persist_crc() && mem.ev_count <= EVENT_QUEUE &&
        mem.ev_head < EVENT_QUEUE && mem.last_reply.len < FRAME_MAX)
        return;
    memset(&mem, 0, sizeof mem);
    mem.magic = PERSIST_MAGIC;
    mem.next_evseq = 1;
    persist_seal();
}

static uint32_t event_sent_at;
static bool event_due;

static void event_push(uint8_t kind, uint16_t arg, uint8_t cause)
{
    if (mem.ev_count == EVENT_QUEUE) {
        mem.lost++;
    } else {
        event_t *e = &mem.ev[(mem.ev_head + mem.ev_count) % EVENT_QUEUE];
        e->seq = mem.next_evseq;
        e->kind = kind;
        e->arg = arg;
        e->cause = cause;
        mem.next_evseq = mem.next_evseq == 0xFF ? 1 : mem.next_evseq + 1;
        if (mem.ev_count++ == 0)
            event_due = true;
    }
    persist_seal();
}

static const char *const button_names[BUTTON_COUNT] = {BUTTON_NAMES};
static uint16_t boot_count;

static void event_send_head(void)
{
    const event_t *e = &mem.ev[mem.ev_head];
    line_t l = {.len = 0};
    put_char(&l, '^');
    put_hex2(&l, e->seq);
    put_char(&l, ' ');
    if (e->kind == EV_BUTTON) {
        put_str(&l, "btn ");
        put_str(&l, button_names[e->arg]);
    } else if (e->kind == EV_ERR_RX || e->kind == EV_ERR_LOST) {
        put_str(&l, e->kind == EV_ERR_RX ? "err rx " : "err lost ");
        put_uint(&l, e->arg);
    } else {
        put_str(&l, "boot ");
        put_uint(&l, e->arg);
        put_char(&l, ' ');
        /* priority: a watchdog reset says most about the firmware's health */
        put_str(&l, (e->cause & _BV(WDRF))    ? "wdt"
                    : (e->cause & _BV(BORF))  ? "bor"
                    : (e->cause & _BV(EXTRF)) ? "ext"
                    : (e->cause & _BV(PORF))  ? "por"
                                              : "other");
    }
    send_frame(l.text, l.len);
}

/* ---------------------------------------------------------------- display */

enum { VERDICT_NONE, VERDICT_OK, VERDICT_BAD };

static struct {
    uint8_t cube_log2;
    char owner; /* 'c' centre, 'x', 'o' */
    char turn;  /* 'x', 'o', '-' nobody */
    uint8_t die1, die2;
    uint8_t verdict;
    uint8_t brightness;
    uint8_t lamp_test;
} disp;

static const uint8_t pip_patterns[7] = {PIP_PATTERNS};
static bool link_up;
static uint32_t shown_leds = 0xFFFFFFFFu;
static int16_t shown_brightness = -1;

static uint32_t leds_for_display(void)
{
    uint32_t m = 0;
    uint8_t k = disp.cube_log2;
    if (k >= 1 && k <= LED_CUBE_COUNT) {
        m |= 1UL << (LED_CUBE_FIRST + k - 1);
    } else if (k > LED_CUBE_COUNT) {
        /* beyond 64: the 64 LED plus the LED of value / 64 (128 = 64+2, ..., 2048 = 64+32) */
        m |= 1UL << (LED_CUBE_FIRST + LED_CUBE_COUNT - 1);
        uint8_t extra = k - LED_CUBE_COUNT;
        if (extra < LED_CUBE_COUNT)
            m |= 1UL << (LED_CUBE_FIRST + extra - 1);
        else
            m |= ((1UL << LED_CUBE_COUNT) - 1) << LED_CUBE_FIRST; /* 4096 and up: all six */
    }
    m |= 1UL << (disp.owner == 'x'   ? LED_OWNER_X
                 : disp.owner == 'o' ? LED_OWNER_O
                                     : LED_OWNER_CENTRE);
    if (disp.turn == 'x')
        m |= 1UL << LED_TURN_X;
    else if (disp.turn == 'o')
        m |= 1UL << LED_TURN_O;
    m |= (uint32_t)pip_patterns[disp.die1] << LED_DIE1_FIRST;
    m |= (uint32_t)pip_patterns[disp.die2] << LED_DIE2_FIRST;
    if (disp.verdict == VERDICT_OK)
        m |= 1UL << LED_VERDICT_OK;
    else if (disp.verdict == VERDICT_BAD)
        m |= 1UL << LED_VERDICT_BAD;
    if (disp.lamp_test)
        m = (1UL << LED_COUNT) - 1;
    else if (link_up)
        m |= 1UL << LED_LINK;
    return m;
}

static void spi_send(uint8_t b)
{
    SPDR = b;
    while (!(SPSR & _BV(SPIF)))
        ;
}

static void display_update(void)
{
    uint32_t m = leds_for_display();
    if (m != shown_leds) {
        PORTB &= ~_BV(PB2);
        for (int8_t shift = 24; shift >= 0; shift -= 8) /* farthest 595 first */
            spi_send((uint8_t)(m >> shift));
        PORTB |= _BV(PB2); /* rising edge on RCLK latches all outputs at once */
        shown_leds = m;
    }
    if (disp.brightness != shown_brightness) {
        if (disp.brightness == 0) {
            TCCR0A = _BV(WGM01) | _BV(WGM00); /* OC0A off: /OE held high, all dark */
            PORTD |= _BV(PD6);
        } else {
            OCR0A = disp.brightness - 1; /* inverting PWM: /OE low for (OCR0A+1)/256 */
            TCCR0A = _BV(COM0A1) | _BV(COM0A0) | _BV(WGM01) | _BV(WGM00);
        }
        shown_brightness = disp.brightness;
    }
}

static void display_reset(void)
{
    memset(&disp, 0, sizeof disp);
    disp.owner = 'c';
    disp.turn = '-';
    disp.brightness = BRIGHTNESS_DEFAULT;
}

/* ---------------------------------------------------------------- requests */

#define MAX_TOKENS 6

static uint32_t host_seen_at;
static uint16_t crc_errors;

static void put_owner(line_t *l, char who) { put_char(l, who); }

/* Acts on one request; writes the reply body (after "=SS ") into r. */
static void act(char **tok, uint8_t n, line_t *r, uint8_t *hang)
{
    uint32_t a, b;
    const char *verb = tok[0];
    if (!strcmp(verb, "ping") && n == 1) {
        put_str(r, "ok");
    } else if (!strcmp(verb, "cube") && n == 3) {
        if (!parse_uint(tok[1], 32768, &a) || (a & (a - 1)) || a == 0 || tok[2][1] ||
            !strchr("cxo", tok[2][0]))
            goto bad_arg;
        uint8_t k = 0;
        while (a > 1) {
            a >>= 1;
            k++;
        }
        disp.cube_log2 = k;
        disp.owner = tok[2][0];
        put_str(r, "ok");
    } else if (!strcmp(verb, "turn") && n == 2) {
        if (tok[1][1] || !strchr("xo-", tok[1][0]))
            goto bad_arg;
        disp.turn = tok[1][0];
        put_str(r, "ok");
    } else if (!strcmp(verb, "dice") && n == 3) {
        if (!parse_uint(tok[1], 6, &a) || !parse_uint(tok[2], 6, &b))
            goto bad_arg;
        disp.die1 = a;
        disp.die2 = b;
        put_str(r, "ok");
    } else if (!strcmp(verb, "verdict") && n == 2) {
        if (!strcmp(tok[1], "-"))
            disp.verdict = VERDICT_NONE;
        else if (!strcmp(tok[1], "ok"))
            disp.verdict = VERDICT_OK;
        else if (!strcmp(tok[1], "bad"))
            disp.verdict = VERDICT_BAD;
        else
            goto bad_arg;
        put_str(r, "ok");
    } else if (!strcmp(verb, "bright") && n == 2) {
        if (!parse_uint(tok[1], 255, &a))
            goto bad_arg;
        disp.brightness = a;
        put_str(r, "ok");
    } else if (!strcmp(verb, "test") && n == 2) {
        if (!parse_uint(tok[1], 1, &a))
            goto bad_arg;
        disp.lamp_test = a;
        put_str(r, "ok");
    } else if (!strcmp(verb, "state") && n == 1) {
        put_str(r, "ok ");
        put_uint(r, 1UL << disp.cube_log2);
        put_char(r, ' ');
        put_owner(r, disp.owner);
        put_char(r, ' ');
        put_char(r, disp.turn);
        put_char(r, ' ');
        put_uint(r, disp.die1);
        put_char(r, ' ');
        put_uint(r, disp.die2);
        put_str(r, disp.verdict == VERDICT_OK ? " ok " : disp.verdict == VERDICT_BAD ? " bad " : " - ");
        put_uint(r, disp.brightness);
        put_char(r, ' ');
        put_uint(r, disp.lamp_test);
    } else if (!strcmp(verb, "leds") && n == 1) {
        put_str(r, "ok ");
        for (int8_t shift = 24; shift >= 0; shift -= 8)
            put_hex2(r, (uint8_t)(shown_leds >> shift));
        put_char(r, ' ');
        put_uint(r, disp.brightness);
    } else if (!strcmp(verb, "stats") && n == 1) {
        put_str(r, "ok ");
        put_uint(r, mem.acted + 1); /* this request counts */
        put_char(r, ' ');
        put_uint(r, mem.dups);
        put_char(r, ' ');
        put_uint(r, crc_errors);
        put_char(r, ' ');
        put_uint(r, rx_overruns);
        put_char(r, ' ');
        put_uint(r, mem.lost);
        put_char(r, ' ');
        put_uint(r, mem.ev_count);
    } else if (!strcmp(verb, "ack") && n == 2) {
        uint16_t seq;
        if (!parse_hex(tok[1], 2, &seq))
            goto bad_arg;
        if (mem.ev_count && mem.ev[mem.ev_head].seq == seq) {
            mem.ev_head = (mem.ev_head + 1) % EVENT_QUEUE;
            mem.ev_count--;
            event_due = mem.ev_count > 0;
        }
        put_str(r, "ok");
    } else if (!strcmp(verb, "wdtest") && n == 1) {
        put_str(r, "ok");
        *hang = 1;
    } else {
        put_str(r, "err verb");
        return;
    }
    return;
bad_arg:
    r->len = 4;
    put_str(r, "err arg");
}

static void send_reply(uint8_t seq, const line_t *body)
{
    (void)seq;
    send_frame(body->text, body->len);
}

/* A complete frame "!SS verb args*CCCC" (newline stripped) arrived. */
static void handle_frame(char *f, uint8_t len)
{
    if (len < 9 || f[len - 5] != '*') {
        crc_errors++;
        return;
    }
    uint16_t want, crc = 0xFFFF;
    if (!parse_hex(f + len - 4, 4, &want)) {
        crc_errors++;
        return;
    }
    for (uint8_t i = 0; i < len - 5; i++)
        crc = _crc_xmodem_update(crc, (uint8_t)f[i]);
    if (crc != want) {
        crc_errors++;
        return;
    }
    f[len - 5] = '\0';
    uint16_t seq;
    char seq_text[3] = {f[1], f[2], 0};
    if (!parse_hex(seq_text, 2, &seq) || f[3] != ' ') {
        crc_errors++;
        return;
    }
    host_seen_at = millis();

    char *tok[MAX_TOKENS];
    uint8_t n = 0;
    for (char *p = f + 4; *p && n < MAX_TOKENS;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        tok[n++] = p;
        while (*p && *p != ' ')
            p++;
        if (*p)
            *p++ = '\0';
    }

    line_t r = {.len = 0};
    put_char(&r, '=');
    put_hex2(&r, seq);
    put_char(&r, ' ');

    if (n >= 1 && !strcmp(tok[0], "hello")) {
        /* "hello <proto> <session>": never deduplicated, never recorded as last request, so a
         * request retried after a reconnect (hello in between) is still recognised. */
        uint32_t proto;
        uint16_t session;
        if (n != 3 || !parse_uint(tok[1], 255, &proto) || strlen(tok[2]) != 4 ||
            !parse_hex(tok[2], 4, &session)) {
            put_str(&r, "err arg");
        } else if (proto != PROTO_VERSION) {
            put_str(&r, "err version ");
            put_uint(&r, PROTO_VERSION);
        } else {
            if (session != mem.session) { /* a new host process: forget the old one's requests */
                mem.session = session;
                mem.has_last = 0;
                mem.acted = mem.dups = 0;
                persist_seal();
            }
            put_str(&r, "ok " DEVICE_NAME " ");
            put_uint(&r, PROTO_VERSION);
            put_str(&r, " " FIRMWARE_VERSION " ");
            put_uint(&r, boot_count);
        }
        send_reply(seq, &r);
        return;
    }

    if (mem.has_last && mem.last_seq == seq) {
        mem.dups++;
        persist_seal();
        send_frame(mem.last_reply.text, mem.last_reply.len);
        return;
    }
    uint8_t hang = 0;
    if (n == 0)
        put_str(&r, "err verb");
    else
        act(tok, n, &r, &hang);
    mem.acted++;
    mem.has_last = 1;
    mem.last_seq = seq;
    mem.last_reply = r;
    persist_seal();
    send_reply(seq, &r);
    if (hang) {
        while (tx_head != tx_tail)
            ;
        cli();
        for (;;) /* no wdt_reset: the watchdog resets the chip */
            ;
    }
}

/* Byte-level framing: everything outside "!...\n" is ignored; a '!' always starts a new frame,
 * so the receiver is back in step at the next frame after any garbage. */
static void parse_byte(uint8_t c)
{
    static char frame[FRAME_MAX];
    static uint8_t len;
    static bool in_frame;

    if (c == '!') {
        in_frame = true;
        frame[0] = c;
        len = 1;
        return;
    }
    if (!in_frame)
        return;
    if (c == '\n' || c == '\r') { /* either ends a frame: a terminal's Enter sends CR */
        in_frame = false;
        frame[len] = '\0';
        handle_frame(frame, len);
        return;
    }
    if (c < 0x20 || c > 0x7E || len >= FRAME_MAX - 1) {
        in_frame = false; /* not a frame of ours: wait for the next '!' */
        crc_errors++;
        return;
    }
    frame[len++] = c;
}

/* ---------------------------------------------------------------- main */

static void io_init(void)
{
    /* buttons: inputs with pull-ups */
    DDRC &= ~((1 << BUTTON_COUNT) - 1);
    PORTC |= (1 << BUTTON_COUNT) - 1;
    /* SPI master to the 595 chain: MOSI, SCK, latch (SS) outputs; SS must be an output */
    DDRB |= _BV(PB3) | _BV(PB5) | _BV(PB2);
    PORTB |= _BV(PB2);
    SPCR = _BV(SPE) | _BV(MSTR);
    SPSR = _BV(SPI2X); /* 8 MHz */
    /* /OE: high (dark) until the first display update, then PWM from Timer0 */
    PORTD |= _BV(PD6);
    DDRD |= _BV(PD6);
    TCCR0A = _BV(WGM01) | _BV(WGM00);
    TCCR0B = _BV(CS01) | _BV(CS00); /* 16 MHz / 64 / 256 = 977 Hz */
    /* Timer2: 1 ms tick */
    TCCR2A = _BV(WGM21);
    OCR2A = 249;
    TCCR2B = _BV(CS22); /* / 64 */
    TIMSK2 = _BV(OCIE2A);
    uart_init();
}

int main(void)
{
    io_init();
    display_reset();
    persist_restore();
    boot_count = eeprom_read_word((uint16_t *)0) + 1;
    eeprom_update_word((uint16_t *)0, boot_count);
    event_push(EV_BOOT, boot_count, reset_cause);
    event_due = true;
    display_update();
    wdt_enable(WDTO_500MS);
    set_sleep_mode(SLEEP_MODE_IDLE);
    sei();

    uint32_t heartbeat_at = 0;
    uint16_t overruns_reported = 0, lost_reported = mem.lost;
    for (;;) {
        wdt_reset();
        while (rx_tail != rx_head) {
            uint8_t c = rx_ring[rx_tail];
            rx_tail = (rx_tail + 1) & (RX_RING - 1);
            parse_byte(c);
        }
        while (button_tail != button_head) {
            event_push(EV_BUTTON, button_ring[button_tail], 0);
            button_tail = (button_tail + 1) & 7;
        }
        /* errors become events too, once there is room in the queue for them */
        uint16_t overruns;
        ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { overruns = rx_overruns; }
        if (overruns != overruns_reported && mem.ev_count < EVENT_QUEUE) {
            overruns_reported = overruns;
            event_push(EV_ERR_RX, overruns, 0);
        }
        if (mem.lost != lost_reported && mem.ev_count < EVENT_QUEUE) {
            lost_reported = mem.lost;
            event_push(EV_ERR_LOST, lost_reported, 0);
        }
        uint32_t now = millis();
        if (mem.ev_count && (event_due || now - event_sent_at >= EVENT_RETRY_MS)) {
            event_send_head();
            event_sent_at = now;
            event_due = false;
        }
        if (now - heartbeat_at >= HEARTBEAT_MS) {
            line_t l = {.len = 0};
            put_str(&l, "~hb ");
            put_uint(&l, now / 1000);
            put_char(&l, ' ');
            put_uint(&l, mem.ev_count);
            send_frame(l.text, l.len);
            heartbeat_at = now;
        }
        link_up = host_seen_at && now - host_seen_at < HOST_TIMEOUT_MS;
        display_update();

        cli();
        if (rx_tail == rx_head && button_tail == button_head) {
            sleep_enable();
            sei(); /* the instruction after sei runs before any interrupt: no lost wake-up */
            sleep_cpu();
            sleep_disable();
        }
        sei();
    }
}
