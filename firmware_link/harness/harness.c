/*
 * bgled-harness: runs the indicator unit's firmware under simavr (libsimavr) and gives a test
 * what the plain `simavr` command does not: UART0 on a pseudo-terminal, the LEDs behind the
 * 74HC595 chain, the buttons, the reset pin and the cable.
 *
 *   bgled-harness FIRMWARE.elf LINK
 *
 * LINK becomes a symbolic link to the pty's slave side (one per instance, so several harnesses
 * can run at once).  Commands, one per line on standard input:
 *   press PIN MS [bounce]   hold button PIN (0..5 = PC0..PC5) down for MS ms of simulated time;
 *                           "bounce" adds contact chatter on press and release
 *   reset                   external reset (RESET pin / DTR): registers cleared, RAM kept
 *   unplug                  close the pty, as if the USB cable was pulled (output is lost)
 *   plug                    a new pty behind LINK, as if the cable was plugged in again
 *   stats                   "stats CYCLES SLEEPING_CYCLES" so far
 *   peek ADDR LEN           "peek" and LEN bytes of data memory from ADDR in hex (debugging)
 *   quit
 * Reports, one per line on standard output:
 *   pty PATH                after start and after each plug
 *   leds HEX8 BRIGHTNESS    whenever the latched 595 outputs or the /OE PWM duty change
 *   ok COMMAND              after each command
 *   released PIN            when a press is over (released and debounced), in simulated time
 *   crashed                 if the simulated chip stops
 *
 * The firmware sleeps when idle; the sleep callback waits on the pty and standard input until
 * the wall-clock time of the next simulated event, so input wakes the chip at once and simulated
 * time keeps up with the wall clock (it catches up after the process was descheduled; busy
 * stretches of firmware run faster than real time, as in any simavr run).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "../firmware/protocol.h"
#include "avr_ioport.h"
#include "avr_spi.h"
#include "avr_uart.h"
#include "sim_avr.h"
#include "sim_elf.h"
#include "sim_time.h"

#define MCUSR_ADDR 0x54
#define EXTRF_BIT 1
#define TCCR0A_ADDR 0x44
#define OCR0A_ADDR 0x47
#define PORTD_ADDR 0x2B
#define SPIN_BELOW_NS 300000

static avr_t *avr;
static const char *link_path;
static int pty_master = -1, pty_slave_keep = -1;
static avr_irq_t *uart_input;
static int uart_xon = 1;
static uint8_t inbuf[4096];
static size_t in_len, in_pos;
static uint32_t shift_reg, latched = 0xFFFFFFFFu;
static int last_latch_level = 1, reported_brightness = -1;
static uint32_t reported_leds = 0xFFFFFFFFu;
static int reported_once;
static avr_cycle_count_t sleeping_cycles;
static char cmd_line[256];
static size_t cmd_len;

static void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#include <stdarg.h>
static void report(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    fflush(stdout);
}

/* ------------------------------------------------------------------ pty (the cable) */

static void plug(void)
{
    char name[128];
    if (openpty(&pty_master, &pty_slave_keep, name, NULL, NULL) < 0) {
        perror("openpty");
        exit(1);
    }
    struct termios t;
    tcgetattr(pty_slave_keep, &t);
    cfmakeraw(&t);
    tcsetattr(pty_slave_keep, TCSANOW, &t);
    fcntl(pty_master, F_SETFL, fcntl(pty_master, F_GETFL) | O_NONBLOCK);
    /* keep a slave descriptor open ourselves, or the master reads EIO between host sessions */
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp%d", link_path, getpid());
    unlink(tmp);
    if (symlink(name, tmp) < 0 || rename(tmp, link_path) < 0) {
        perror("symlink");
        exit(1);
    }
    in_len = in_pos = 0;
    report("pty %s", name);
}

static void unplug(void)
{
    if (pty_master >= 0) {
        close(pty_master);
        close(pty_slave_keep);
        pty_master = pty_slave_keep = -1;
    }
    unlink(link_path);
}

static void feed_uart(void)
{
    while (uart_xon && in_pos < in_len)
        avr_raise_irq(uart_input, inbuf[in_pos++]);
    if (in_pos == in_len)
        in_pos = in_len = 0;
}

static void on_uart_output(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    if (pty_master < 0)
        return; /* cable pulled: the byte is lost, as on the wire */
    uint8_t b = value;
    if (write(pty_master, &b, 1) < 0 && errno != EAGAIN)
        fprintf(stderr, "harness: pty write: %s\n", strerror(errno));
}

static void on_xon(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)value;
    (void)param;
    uart_xon = 1;
    feed_uart();
}

static void on_xoff(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)value;
    (void)param;
    uart_xon = 0;
}

/* ------------------------------------------------------------------ LEDs */

static int brightness_now(void)
{
    uint8_t tccr0a = avr->data[TCCR0A_ADDR];
    if ((tccr0a & 0xC0) == 0xC0)
        return avr->data[OCR0A_ADDR] + 1;
    return (avr->data[PORTD_ADDR] & (1 << 6)) ? 0 : 255;
}

static void report_leds(void)
{
    int bright = brightness_now();
    if (!reported_once || latched != reported_leds || bright != reported_brightness) {
        reported_once = 1;
        reported_leds = latched;
        reported_brightness = bright;
        report("leds %08X %d", latched, bright);
    }
}

static void on_spi_byte(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    shift_reg = (shift_reg << 8) | (value & 0xFF);
}

static void on_latch(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    if (value && !last_latch_level) {
        latched = shift_reg;
        report_leds();
    }
    last_latch_level = value ? 1 : 0;
}

/* ------------------------------------------------------------------ buttons */

static avr_irq_t *button_pin[6];
static uintptr_t timer_serial;

/* param: pin in bits 0-3, level in bit 4, bit 5 "only report that the press is over", a serial
 * number above (distinct timers) */
static avr_cycle_count_t set_pin_later(struct avr_t *a, avr_cycle_count_t when, void *param)
{
    (void)a;
    (void)when;
    uintptr_t p = (uintptr_t)param;
    if (p & 0x20)
        report("released %d", (int)(p & 0xF));
    else
        avr_raise_irq(button_pin[p & 0xF], (p >> 4) & 1);
    return 0;
}

static void schedule_pin(int pin, int level, uint32_t usec)
{
    uintptr_t p = (uintptr_t)pin | ((uintptr_t)level << 4) | (++timer_serial << 8);
    if (usec == 0)
        avr_raise_irq(button_pin[pin], level);
    else
        avr_cycle_timer_register_usec(avr, usec, set_pin_later, (void *)p);
}

static void press(int pin, int ms, int bounce)
{
    uint32_t t = 0;
    if (bounce) { /* three short chatters before settling, on press and on release */
        for (int i = 0; i < 3; i++) {
            schedule_pin(pin, 0, t);
            schedule_pin(pin, 1, t + 300);
            t += 900;
        }
    }
    schedule_pin(pin, 0, t);
    t += (uint32_t)ms * 1000;
    if (bounce) {
        for (int i = 0; i < 3; i++) {
            schedule_pin(pin, 1, t);
            schedule_pin(pin, 0, t + 300);
            t += 900;
        }
    }
    schedule_pin(pin, 1, t);
    /* reported once the release is debounced too: a finger cannot press again sooner */
    uintptr_t report_it = (uintptr_t)pin | 0x20 | (++timer_serial << 8);
    avr_cycle_timer_register_usec(avr, t + (DEBOUNCE_SAMPLES + 1) * DEBOUNCE_SAMPLE_MS * 1000,
                                  set_pin_later, (void *)report_it);
}

static void release_all_buttons(void)
{
    /* avr_reset clears the port's pin state but not the IRQ's remembered value, and raising the
     * same value again changes nothing: go through 0 (no simulated time passes in between). */
    for (int i = 0; i < 6; i++) {
        avr_raise_irq(button_pin[i], 0);
        avr_raise_irq(button_pin[i], 1);
    }
}

/* ------------------------------------------------------------------ commands */

static void external_reset(void)
{
    /* A reset pin keeps SRAM; simavr's avr_reset clears it, so save and restore it. */
    size_t first = avr->ioend + 1, size = avr->ramend + 1 - first;
    uint8_t *ram = malloc(size);
    memcpy(ram, avr->data + first, size);
    avr_reset(avr);
    memcpy(avr->data + first, ram, size);
    free(ram);
    avr->data[MCUSR_ADDR] |= 1 << EXTRF_BIT;
    last_latch_level = 1;
    release_all_buttons();
}

static void run_command(char *line)
{
    int pin, ms;
    char extra[32] = "";
    if (sscanf(line, "press %d %d %31s", &pin, &ms, extra) >= 2 && pin >= 0 && pin < 6 && ms > 0) {
        press(pin, ms, !strcmp(extra, "bounce"));
    } else if (sscanf(line, "peek %d %d", &pin, &ms) == 2 && pin >= 0 && ms > 0 && pin + ms <= (int)avr->ramend + 1) {
        printf("peek");
        for (int i = 0; i < ms; i++)
            printf(" %02X", avr->data[pin + i]);
        printf("\n");
    } else if (!strcmp(line, "reset")) {
        external_reset();
    } else if (!strcmp(line, "unplug")) {
        unplug();
    } else if (!strcmp(line, "plug")) {
        if (pty_master < 0)
            plug();
    } else if (!strcmp(line, "stats")) {
        report("stats %llu %llu", (unsigned long long)avr->cycle, (unsigned long long)sleeping_cycles);
    } else if (!strcmp(line, "quit")) {
        unlink(link_path);
        exit(0);
    } else {
        report("error unknown command: %s", line);
        return;
    }
    report("ok %s", line);
}

/* Reads whatever the pty and standard input have, waiting at most timeout_ns for some.
 * Returns 1 if anything was read. */
static int poll_io(int64_t timeout_ns)
{
    struct pollfd fds[2] = {{.fd = 0, .events = POLLIN}, {.fd = pty_master, .events = POLLIN}};
    int nfds = pty_master >= 0 ? 2 : 1;
    if (in_len >= sizeof inbuf) /* the chip is not taking bytes: do not read more */
        nfds = 1;
    struct timespec ts = {.tv_sec = timeout_ns / 1000000000, .tv_nsec = timeout_ns % 1000000000};
    if (ppoll(fds, nfds, &ts, NULL) <= 0)
        return 0;
    if (nfds == 2 && (fds[1].revents & POLLIN)) {
        ssize_t n = read(pty_master, inbuf + in_len, sizeof inbuf - in_len);
        if (n > 0) {
            in_len += n;
            feed_uart();
        }
    }
    if (fds[0].revents & (POLLIN | POLLHUP)) {
        char buf[256];
        ssize_t n = read(0, buf, sizeof buf);
        if (n <= 0) { /* the test went away */
            unlink(link_path);
            exit(0);
        }
        for (ssize_t i = 0; i < n; i++) {
            if (buf[i] == '\n') {
                cmd_line[cmd_len] = 0;
                run_command(cmd_line);
                cmd_len = 0;
            } else if (cmd_len < sizeof cmd_line - 1) {
                cmd_line[cmd_len++] = buf[i];
            }
        }
    }
    return 1;
}

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Simulated time follows the wall clock: cycle_origin happened at wall_origin. */
static int64_t wall_origin;
static avr_cycle_count_t cycle_origin;

static void harness_sleep(avr_t *a, avr_cycle_count_t how_long)
{
    avr_cycle_count_t wake_cycle = a->cycle + how_long;
    int64_t wake_at = wall_origin + (int64_t)((double)(wake_cycle - cycle_origin) * 1e9 / a->frequency);
    int64_t now = now_ns();
    int woken = 0;
    if (wake_at - now >= SPIN_BELOW_NS)
        woken = poll_io(wake_at - now - SPIN_BELOW_NS / 2);
    /* Short waits (a UART byte time) are spun: on a loaded machine every real sleep risks a
     * scheduler delay of milliseconds, and one request has some thirty such waits. */
    while (!woken && now_ns() < wake_at)
        woken = poll_io(0);
    now = now_ns();
    avr_cycle_count_t unslept = 0;
    if (now < wake_at) { /* woken early by input: simulated time goes only as far as real time */
        avr_cycle_count_t reached = cycle_origin + (avr_cycle_count_t)((double)(now - wall_origin) * a->frequency / 1e9);
        if (reached < a->cycle)
            reached = a->cycle;
        unslept = wake_cycle - reached;
        a->cycle -= unslept; /* the core adds how_long after this returns */
    }
    sleeping_cycles += how_long - unslept;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s FIRMWARE.elf LINK\n", argv[0]);
        return 2;
    }
    link_path = argv[2];
    elf_firmware_t fw;
    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(argv[1], &fw) != 0) {
        fprintf(stderr, "harness: cannot read %s\n", argv[1]);
        return 2;
    }
    strcpy(fw.mmcu, "atmega328p");
    fw.frequency = 16000000;
    avr = avr_make_mcu_by_name(fw.mmcu);
    if (!avr)
        return 2;
    avr_init(avr);
    avr->log = 0;
    avr_load_firmware(avr, &fw);
    avr->sleep = harness_sleep;

    uint32_t flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
    flags &= ~AVR_UART_FLAG_STDIO;
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    uart_input = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                            on_uart_output, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), on_xon,
                            NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF),
                            on_xoff, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_OUTPUT), on_spi_byte,
                            NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('B'), IOPORT_IRQ_PIN2), on_latch,
                            NULL);
    for (int i = 0; i < 6; i++)
        button_pin[i] = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('C'), IOPORT_IRQ_PIN0 + i);
    release_all_buttons();
    avr->data[MCUSR_ADDR] |= 1; /* PORF: this is a power-on */

    plug();
    wall_origin = now_ns();
    cycle_origin = avr->cycle;
    for (unsigned long n = 0;; n++) {
        int state = avr_run(avr);
        if (state == cpu_Done || state == cpu_Crashed) {
            report("crashed");
            unlink(link_path);
            return 1;
        }
        if ((n & 1023) == 0) {
            poll_io(0);
            report_leds();
        }
    }
}
