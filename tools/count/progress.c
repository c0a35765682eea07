/* SPDX-License-Identifier: MIT */
/*
 * progress.c — the live progress line (see progress.h).
 *
 * The scheduler reports each finished unit through qcc_line_update, under
 * its own serialisation; this file copies the snapshot under a mutex and
 * a thread of its own draws it once a second, so the line keeps moving
 * (elapsed, ETA) even while units take long, and the workers never wait
 * on the terminal.  Each refresh is one write(2), which cannot interleave
 * with other output mid-line.  On a terminal the line is cut to its width,
 * read at each refresh: a line that wrapped would leave a line behind at
 * every refresh.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "qct_clock.h"
#include "progress.h"

struct qcc_line {
    int fd, tty;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int stopping;
    int drawn;                /* a line is on the terminal */
    int have;                 /* the run has reported where it stands */
    qc_progress last;
    double start;             /* qct_now_seconds() */
};

/* h:mm:ss, or Dd hh:mm:ss for more than a day. */
static void format_duration(double s, char *buf, size_t len)
{
    if (s < 0 || s > 1e9) {
        snprintf(buf, len, "--");
        return;
    }
    unsigned long t = (unsigned long)(s + 0.5);
    unsigned long d = t / 86400, h = t / 3600 % 24, m = t / 60 % 60, sec = t % 60;
    if (d)
        snprintf(buf, len, "%lud %02lu:%02lu:%02lu", d, h, m, sec);
    else
        snprintf(buf, len, "%lu:%02lu:%02lu", h, m, sec);
}

void qcc_line_format(const qc_progress *p, double elapsed, char *buf, size_t len)
{
    /* the share done and the ETA by the units' estimated work, at the
     * pace of the work counted by this run (resumed units took no time) */
    double pct = p->work_total > 0 ? 100.0 * p->work_done / p->work_total : 100.0;
    double counted = p->work_done - p->work_resumed, left = p->work_total - p->work_done;
    /* [rounding] the work is summed over the units in more than one order
     * (a part's: the plan's less the other parts'), so "none" may come out
     * a hair off zero: no "-0.0%", and no ETA from a rounding error */
    pct = pct < 0 ? 0 : pct > 100 ? 100 : pct;
    if (counted <= 1e-9 * p->work_total)
        counted = 0;
    char el[32], eta[32];
    format_duration(elapsed, el, sizeof el);
    if (counted > 0 && elapsed > 0)
        format_duration(elapsed / counted * (left > 0 ? left : 0), eta, sizeof eta);
    else
        snprintf(eta, sizeof eta, "--");
    double rate = elapsed > 0 ? (double)p->steps / elapsed : 0.0;
    const char *unit = "";
    if (rate >= 1e9) {
        rate /= 1e9;
        unit = "G";
    } else if (rate >= 1e6) {
        rate /= 1e6;
        unit = "M";
    } else if (rate >= 1e3) {
        rate /= 1e3;
        unit = "k";
    }
    snprintf(buf, len, "qcount: %zu/%zu units (%.1f%%), elapsed %s, ETA %s, %.1f%s steps/s",
             p->units_done, p->units_total, pct, el, eta, rate, unit);
}

static void write_all(int fd, const char *s, size_t len)
{
    while (len) {
        ssize_t k = write(fd, s, len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return;          /* stderr gone: the progress is not worth a fuss */
        s += k;
        len -= (size_t)k;
    }
}

/* The terminal's width in columns, 0 when it does not say. */
static int terminal_width(int fd)
{
    struct winsize ws;
    return ioctl(fd, TIOCGWINSZ, &ws) == 0 ? ws.ws_col : 0;
}

/* Draws the line; called with the lock held. */
static void draw(qcc_line *line)
{
    char text[256], out[300];
    qcc_line_format(&line->last, qct_now_seconds() - line->start, text, sizeof text);
    /* one column short of the width: some terminals wrap on the last */
    int width = line->tty ? terminal_width(line->fd) : 0;
    if (width > 1 && strlen(text) > (size_t)width - 1)
        text[width - 1] = '\0';
    int k = line->tty ? snprintf(out, sizeof out, "\r%s\033[K", text)
                      : snprintf(out, sizeof out, "%s\n", text);
    if (k > 0)
        write_all(line->fd, out, (size_t)k < sizeof out ? (size_t)k : sizeof out - 1);
    line->drawn = 1;
}

static void *draw_loop(void *arg)
{
    qcc_line *line = arg;
    pthread_mutex_lock(&line->lock);
    for (;;) {
        /* every refresh; once more at the end into a file (the final
         * state, for the log), or if nothing was drawn yet on a terminal
         * (so even a short run shows its line once before erasing it) */
        if (line->have && (!line->stopping || !line->tty || !line->drawn))
            draw(line);
        if (line->stopping)
            break;
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);   /* the condvar's clock */
        until.tv_sec += 1;
        int first = !line->have;
        while (!line->stopping && first == !line->have
               && pthread_cond_timedwait(&line->wake, &line->lock, &until) != ETIMEDOUT)
            ;
    }
    pthread_mutex_unlock(&line->lock);
    return NULL;
}

qcc_line *qcc_line_start(int fd, int tty)
{
    qcc_line *line = calloc(1, sizeof *line);
    if (!line)
        return NULL;
    line->fd = fd;
    line->tty = tty;
    line->start = qct_now_seconds();
    pthread_mutex_init(&line->lock, NULL);
    pthread_cond_init(&line->wake, NULL);
    if (pthread_create(&line->thread, NULL, draw_loop, line) != 0) {
        pthread_mutex_destroy(&line->lock);
        pthread_cond_destroy(&line->wake);
        free(line);
        return NULL;
    }
    return line;
}

void qcc_line_update(void *ctx, const qc_progress *p)
{
    qcc_line *line = ctx;
    pthread_mutex_lock(&line->lock);
    line->last = *p;
    if (!line->have) {        /* the first report: draw it now */
        line->have = 1;
        pthread_cond_signal(&line->wake);
    }
    pthread_mutex_unlock(&line->lock);
}

void qcc_line_stop(qcc_line *line)
{
    if (!line)
        return;
    pthread_mutex_lock(&line->lock);
    line->stopping = 1;
    pthread_cond_signal(&line->wake);
    pthread_mutex_unlock(&line->lock);
    pthread_join(line->thread, NULL);
    if (line->tty && line->drawn)
        write_all(line->fd, "\r\033[K", 4);   /* erase: the terminal is as before */
    pthread_mutex_destroy(&line->lock);
    pthread_cond_destroy(&line->wake);
    free(line);
}
