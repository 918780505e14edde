/// @file
/// @brief Error codes returned by operations that validate their input (nice values,
/// priorities, knobs, deadline parameters). No exceptions exist in the core; a function that
/// can refuse returns `errc` and, when it refuses, changes nothing.
#ifndef SCHEDCORE_CORE_ERRC_HPP
#define SCHEDCORE_CORE_ERRC_HPP

#include "schedcore/core/types.hpp"

namespace schedcore {

/// Result of a validating operation. `ok` is zero so `if (auto e = f(); e != errc::ok)` reads well.
/// `[[nodiscard]]`: every function returning it warns when its result is dropped, since a refused
/// setup (nice 25, a priority out of range) leaves the task as it was; write `(void)` to drop it
/// on purpose.
enum class [[nodiscard]] errc : u8 {
  ok = 0,            ///< done
  invalid_argument,  ///< a value outside its documented domain (nice 25, zero weight ...)
  out_of_range,      ///< a priority or index beyond the container's capacity
  inverted,          ///< parameters in the wrong order (runtime > deadline > period)
  overloaded,        ///< admission control refused: the bandwidth bound would be exceeded
  busy,              ///< the object is queued or running and the change needs it idle
};

/// A short, static, human-readable name for an error code.
constexpr const char* to_string(errc e) noexcept {
  switch (e) {
    case errc::ok: return "ok";
    case errc::invalid_argument: return "invalid argument";
    case errc::out_of_range: return "out of range";
    case errc::inverted: return "parameters inverted";
    case errc::overloaded: return "admission refused: bandwidth bound exceeded";
    case errc::busy: return "busy";
  }
  return "unknown error";
}

}  // namespace schedcore

#endif
