// Context of docs/guides/porting-kernel.md's ```cpp block 1 (the assert handler), compiled by
// tests/docs/CMakeLists.txt. A complete definition: compiled as the module's C++ object is,
// with SCHEDCORE_ASSERT_HANDLER naming it (Kbuild's -D), so that it must match the declaration
// core/assert.hpp makes, and with the module's C header declaring schedcore_port_warn.
// snippet: freestanding
// snippet-include-dir: examples/linux-module
#define SCHEDCORE_ASSERT_HANDLER schedcore_port_check_failed
#include "sched_cxx.h"
#include "schedcore/core/assert.hpp"

#include SNIPPET_FILE
