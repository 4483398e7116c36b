/* sd_pressure.c - what a service does with systemd's memory pressure
 * protocol, run in a Slurm step: sd-event's memory pressure source
 * (sd_event_add_memory_pressure, libsystemd 254), which reads
 * $MEMORY_PRESSURE_WATCH and $MEMORY_PRESSURE_WRITE, or without them tries
 * its own cgroup's memory.pressure.  Prints one line and exits 0:
 *   "callback after S s"            the kernel's trigger fired
 *   "no callback within S s"        it did not, within SECONDS
 *   "unavailable: ERROR"            the source could not be added
 * usage: sd_pressure SECONDS */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-event.h>
#include <time.h>

static struct timespec start;

static double since_start(void)
{
    struct timespec now;

    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9;
}

static int on_pressure(sd_event_source *s, void *userdata)
{
    (void)userdata;
    printf("callback after %.1f s\n", since_start());
    return sd_event_exit(sd_event_source_get_event(s), 0);
}

static int on_timeout(sd_event_source *s, uint64_t usec, void *userdata)
{
    (void)usec;
    printf("no callback within %s s\n", (const char *)userdata);
    return sd_event_exit(sd_event_source_get_event(s), 0);
}

int main(int argc, char **argv)
{
    sd_event *e = NULL;
    char *end;
    unsigned long secs;
    int r;

    if (argc != 2 || !(secs = strtoul(argv[1], &end, 10)) || *end) {
        fprintf(stderr, "usage: sd_pressure SECONDS\n");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &start);
    r = sd_event_default(&e);
    if (r >= 0)
        r = sd_event_add_memory_pressure(e, NULL, on_pressure, NULL);
    if (r < 0) {
        printf("unavailable: %s\n", strerror(-r));
        sd_event_unref(e);
        return 0;
    }
    r = sd_event_add_time_relative(e, NULL, CLOCK_MONOTONIC, (uint64_t)secs * 1000000u, 0,
                                   on_timeout, argv[1]);
    if (r >= 0)
        r = sd_event_loop(e);
    sd_event_unref(e);
    if (r < 0) {
        fprintf(stderr, "sd_pressure: %s\n", strerror(-r));
        return 1;
    }
    fflush(stdout);
    return 0;
}
