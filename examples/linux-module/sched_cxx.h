/* C view of the C++ half of the schedcore port module (sched_cxx.cpp). */
#ifndef SCHEDCORE_PORT_SCHED_CXX_H
#define SCHEDCORE_PORT_SCHED_CXX_H

#ifdef __cplusplus
extern "C" {
#endif

/* Result of the self-test: the shared checksum (identical on every target) and what the
   work-item dispatcher did. */
struct schedcore_port_result {
	unsigned long long sum;      /* run_selftest() checksum */
	unsigned int failures;       /* self-test consistency failures (0 expected) */
	unsigned int dispatches;     /* quanta the dispatcher handed out */
	unsigned int order_ok;       /* 1 when the dispatcher's shares matched the nice weights */
	char order[64];              /* one letter per quantum, NUL-terminated */
};

/* Runs the shared self-test and the work-item dispatcher. Returns 0 on success. Sleeps
   nowhere, allocates nothing, takes no locks: callable from module_init. */
int schedcore_port_selftest(struct schedcore_port_result *out);

/* Reports a failed schedcore check (C side: WARN). */
void schedcore_port_warn(const char *expr, const char *file, int line);

#ifdef __cplusplus
}
#endif

#endif
