/// @file
/// @brief Umbrella header: every freestanding schedcore header (never the hosted `sim/`).
#ifndef SCHEDCORE_SCHEDCORE_HPP
#define SCHEDCORE_SCHEDCORE_HPP

#include "schedcore/core/arith.hpp"
#include "schedcore/core/assert.hpp"
#include "schedcore/core/bitops.hpp"
#include "schedcore/core/config.hpp"
#include "schedcore/core/errc.hpp"
#include "schedcore/core/fixed.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/core/traits.hpp"
#include "schedcore/core/types.hpp"
#include "schedcore/version.hpp"

// intrusive list, bitmaps, arrays

// intrusive tree

// policies
#include "schedcore/policy/class_stack.hpp"
#include "schedcore/policy/flags.hpp"
#include "schedcore/policy/policy.hpp"

#endif
