// Context of docs/guides/porting-rtos.md's ```cpp block 2 (an RTOS's assert handler), compiled
// by tests/docs/CMakeLists.txt. A complete definition: compiled with SCHEDCORE_ASSERT_HANDLER
// naming it, as the block's first line says, so that it must match core/assert.hpp's
// declaration.
// snippet: freestanding
#define SCHEDCORE_ASSERT_HANDLER rtos_sched_check
#include "schedcore/core/assert.hpp"

// The RTOS's own log and halt (the reader's; declared only).
void rtos_log(const char* format, ...) noexcept;
[[noreturn]] void rtos_halt() noexcept;

#include SNIPPET_FILE
