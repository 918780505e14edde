// Shared pieces of schedcore's libFuzzer targets (tests/fuzz/*_fuzz.cpp):
//   - a recording check handler (built with -DSCHEDCORE_ASSERT_HANDLER=schedcore_fuzz_check_handler),
//     so a target can tell an expected misuse report from a check that must never fire;
//   - a byte reader that decodes an operation stream from the fuzz input (past the end it
//     yields zeros, so every input is a valid stream);
//   - FUZZ_REQUIRE: report a failed property with the op index and abort (libFuzzer then saves
//     the crashing input).
#ifndef SCHEDCORE_TESTS_FUZZ_COMMON_HPP
#define SCHEDCORE_TESTS_FUZZ_COMMON_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "schedcore/core/assert.hpp"

namespace fuzz {

/// Every check that fired since the last reset (kind and place of the last one).
struct check_log {
  unsigned count = 0;
  unsigned misuse = 0;
  schedcore::check_failure last{};
};

inline check_log& checks() {
  static check_log log;
  return log;
}

inline const char* kind_name(schedcore::check_kind k) {
  switch (k) {
    case schedcore::check_kind::assertion: return "assertion";
    case schedcore::check_kind::invariant: return "invariant";
    case schedcore::check_kind::warning: return "warning";
    case schedcore::check_kind::misuse: return "misuse";
  }
  return "?";
}

/// Position in the op stream, printed with every failure.
inline unsigned long& op_index() {
  static unsigned long i = 0;
  return i;
}

[[noreturn]] inline void fail(const char* what, const char* file, int line) {
  std::fprintf(stderr, "FUZZ FAILURE at op %lu: %s (%s:%d)\n", op_index(), what, file, line);
  const check_log& c = checks();
  if (c.count != 0)
    std::fprintf(stderr, "  last check (%u recorded): %s '%s' at %s:%d\n", c.count, kind_name(c.last.kind),
                 c.last.expr, c.last.file, c.last.line);
  std::abort();
}

/// FUZZ_TRACE=1 in the environment: targets print every op (for reproducers).
inline bool tracing() {
  static const bool on = std::getenv("FUZZ_TRACE") != nullptr;
  return on;
}

#define FUZZ_REQUIRE(cond)                                 \
  do {                                                     \
    if (!(cond)) ::fuzz::fail(#cond, __FILE__, __LINE__);  \
  } while (0)

/// Decodes little values from the fuzz input; zeros past the end.
class reader {
 public:
  reader(const std::uint8_t* data, std::size_t size) : p_(data), end_(data + size) {}
  /// An endless pseudo-random stream (splitmix64 from `seed`) instead of an input: the soak
  /// test drives the same harnesses with it.
  explicit reader(std::uint64_t seed) : p_(nullptr), end_(nullptr), prng_(true), state_(seed) {}
  bool done() const { return !prng_ && p_ >= end_; }
  std::uint8_t u8() {
    if (prng_) {
      if (avail_ == 0) {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        bits_ = z ^ (z >> 31);
        avail_ = 8;
      }
      const auto b = static_cast<std::uint8_t>(bits_);
      bits_ >>= 8;
      --avail_;
      return b;
    }
    return p_ < end_ ? *p_++ : 0;
  }
  std::uint16_t u16() { return static_cast<std::uint16_t>(u8() | (u8() << 8)); }
  std::uint32_t u32() { return static_cast<std::uint32_t>(u16()) | (static_cast<std::uint32_t>(u16()) << 16); }
  std::uint64_t u64() { return static_cast<std::uint64_t>(u32()) | (static_cast<std::uint64_t>(u32()) << 32); }
  /// A value in [0, n) (n > 0), from one byte when n <= 256.
  unsigned below(unsigned n) { return n <= 256 ? u8() % n : u16() % n; }
  bool flip() { return (u8() & 1u) != 0; }

 private:
  const std::uint8_t* p_;
  const std::uint8_t* end_;
  bool prng_ = false;
  std::uint64_t state_ = 0;
  std::uint64_t bits_ = 0;
  unsigned avail_ = 0;
};

}  // namespace fuzz

/// The handler every schedcore check in a fuzz target goes to: record and return (the library
/// then refuses the operation itself).
void schedcore_fuzz_check_handler(const schedcore::check_failure& failure) noexcept {
  fuzz::check_log& c = fuzz::checks();
  ++c.count;
  if (failure.kind == schedcore::check_kind::misuse) ++c.misuse;
  c.last = failure;
}

#endif
