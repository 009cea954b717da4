/*
 * Wiring of the bgbridge indicator unit (ATmega328P, Arduino Uno/Nano class, 16 MHz).
 * The host (firmware_link/display.py) reads the #define lines of this file, so the LED and
 * button assignment lives here only.
 *
 * LEDs: four 74HC595 shift registers in a chain on the hardware SPI port, 32 outputs.
 *   MOSI  PB3 (Uno D11) -> SER of the first 595       SCK PB5 (D13) -> SRCLK of all 595s
 *   LATCH PB2 (D10)     -> RCLK of all 595s           /OE PD6 (D6, OC0A PWM) -> /OE of all 595s
 *   QH' of each 595 feeds SER of the next. LED bit n is output Q(n % 8) of 595 number n / 8
 *   (number 0 is the one nearest the MCU); each LED through its own resistor to ground.
 *   Why 595s and not WS2812: a WS2812 update disables interrupts for ~30 us per LED and the
 *   UART then drops bytes at 115200 baud; SPI into 595s takes 4 bytes at 8 MHz with
 *   interrupts on.  Brightness is PWM on /OE (Timer0, ~1 kHz).
 *
 * Buttons: six momentary switches from PC0..PC5 (Uno A0..A5) to ground, internal pull-ups,
 * sampled every DEBOUNCE_SAMPLE_MS ms.
 */
#ifndef BGLED_WIRING_H
#define BGLED_WIRING_H

/* cube value LEDs, labelled 2 4 8 16 32 64 (value 1: none lit) */
#define LED_CUBE_FIRST 0
#define LED_CUBE_COUNT 6
/* cube owner: centre, player X's side, player O's side */
#define LED_OWNER_CENTRE 6
#define LED_OWNER_X 7
#define LED_OWNER_O 8
/* whose turn */
#define LED_TURN_X 9
#define LED_TURN_O 10
/* two dice of seven pip LEDs each: a b / c d e / f g
 *   a . b      bit 0 = a (top left), 1 = b (top right), 2 = c (middle left), 3 = d (centre),
 *   c d e      4 = e (middle right), 5 = f (bottom left), 6 = g (bottom right)
 *   f . g                                                                              */
#define LED_DIE1_FIRST 11
#define LED_DIE2_FIRST 18
#define PIPS_PER_DIE 7
#define PIP_PATTERNS 0x00, 0x08, 0x41, 0x49, 0x63, 0x6B, 0x77
/* verdict on the last move, and the link LED (lit while the host is heard) */
#define LED_VERDICT_OK 25
#define LED_VERDICT_BAD 26
#define LED_LINK 27
#define LED_COUNT 28

/* buttons on PC0..PC5, in this order; the names are the protocol's event words */
#define BUTTON_COUNT 6
#define BUTTON_NAMES "endx", "endo", "double", "take", "drop", "undo"

#endif
