/* Skipping a cmocka test for a fact of the machine, saying which: a line
 * "# SKIP: FACT" before cmocka's own "Skipped!", so that the log of a build
 * without root or without a MUNGE daemon (a Debian build daemon's) tells
 * why each test did not run. The facts are these, and no others. Include
 * after <cmocka.h>. */
#ifndef GOV_TEST_SKIP_BECAUSE_H
#define GOV_TEST_SKIP_BECAUSE_H

#define GOV_FACT_NOT_ROOT "not root (euid != 0)"
#define GOV_FACT_NO_MUNGED "no MUNGE daemon answers on its default socket"
#define GOV_FACT_NO_DEVICES_CG "no writable cgroup v1 devices hierarchy"
#define GOV_FACT_NO_USERNS "the kernel refuses this process a user namespace"
#define GOV_FACT_NO_MOUNTNS "the kernel refuses this process a mount namespace"

/* Ends the running test (a void function) as skipped. */
#define SKIP_BECAUSE(fact, why)                                                \
    do {                                                                       \
        print_message("# SKIP: %s: %s\n", (fact), (why));                      \
        skip();                                                                \
        return;                                                                \
    } while (0)

#endif
