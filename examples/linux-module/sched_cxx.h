/* C view of the C++ half of the schedcore port module (sched_cxx.cpp). */
#ifndef SCHEDCORE_PORT_SCHED_CXX_H
#define SCHEDCORE_PORT_SCHED_CXX_H

#ifdef __cplusplus
extern "C" {
#endif

/* Result of the self-test: the shared checksum (identical on every target) and what the
   work-item dispatcher did with eevdf_policy and with sd_policy. */
struct schedcore_port_result {
	unsigned long long sum;      /* run_selftest() checksum */
	unsigned int failures;       /* self-test consistency failures (0 expected) */
	const char *selftest_prefix; /* "selftest fixed: sum=", "selftest fair: sum=", ... (PORT_SCHED_FAIR) */
	unsigned int dispatches;     /* quanta the eevdf dispatcher handed out */
	unsigned int quanta[3];      /* quanta each eevdf work item (nice -5, 0, 5) received */
	char order[64];              /* eevdf: one letter per quantum, NUL-terminated */
	unsigned int sd_dispatches;  /* quanta the sd dispatcher handed out */
	unsigned int sd_quanta[3];   /* quanta each sd work item (nice 0, 10, 19) received */
	unsigned int order_ok;       /* 1 when both dispatchers' shares matched their policies */
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
