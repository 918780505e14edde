/// @file
/// @brief Fixed-width integer types from compiler-predefined macros (no `<stdint.h>` needed).
#ifndef SCHEDCORE_CORE_TYPES_HPP
#define SCHEDCORE_CORE_TYPES_HPP

#include "schedcore/core/config.hpp"

namespace schedcore {

using u8 = __UINT8_TYPE__;    ///< unsigned 8-bit
using u16 = __UINT16_TYPE__;  ///< unsigned 16-bit
using u32 = __UINT32_TYPE__;  ///< unsigned 32-bit
using u64 = __UINT64_TYPE__;  ///< unsigned 64-bit
using s8 = __INT8_TYPE__;     ///< signed 8-bit
using s16 = __INT16_TYPE__;   ///< signed 16-bit
using s32 = __INT32_TYPE__;   ///< signed 32-bit
using s64 = __INT64_TYPE__;   ///< signed 64-bit
using usize = __SIZE_TYPE__;  ///< size of an object (`size_t`)
using uptr = __UINTPTR_TYPE__;  ///< an integer that holds a pointer
using nullptr_type = decltype(nullptr);  ///< `std::nullptr_t`

static_assert(sizeof(u64) == 8 && sizeof(s64) == 8, "u64/s64 must be 64 bits");
static_assert(sizeof(u32) == 4 && sizeof(s32) == 4, "u32/s32 must be 32 bits");
static_assert((s32{-1} >> 1) == -1, "schedcore assumes arithmetic right shift");

}  // namespace schedcore

#endif
