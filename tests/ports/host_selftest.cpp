// Host build of the ports' shared self-test (examples/cortex-m/portable/selftest.hpp): prints
// the same checksum line as the Cortex-M3, RISC-V and Linux-module builds. Exit 0 when the
// self-test's own consistency checks pass.
#include <cstdio>

#include "portable/selftest.hpp"

namespace {
port::run_queue rq;  // fresh, constant-initialised
}  // namespace

int main() {
  const port::selftest_result r = port::run_selftest(rq);
  std::printf("%s0x%016llx %s\n", port::selftest_line_prefix, static_cast<unsigned long long>(r.sum),
              r.failures == 0 ? "ok" : "FAILED");
  return r.failures == 0 ? 0 : 1;
}
