/// @file
/// @brief `prio_bitmap<N, Order>`: which of N priorities are non-empty, and the most urgent of
/// them in O(1): one word for N <= 64, two levels (seL4's L1/L2) for N <= 4096.
///
/// @par Implementation notes
/// - Structure: bit `p` of the bitmap is priority `p`. For N <= 32 the bitmap is one `u32`,
///   for N <= 64 one `u64` (Zephyr's multiq `bitmask`, Linux's `sched_find_first_bit` on one
///   word). For 64 < N <= 4096 it is seL4's two-level form: `l2_[i]` holds priorities
///   64i..64i+63 and bit i of the summary word `l1_` is set iff `l2_[i] != 0`; a find-first is
///   then two bit scans and one dependent load, whatever N.
/// - Direction (`prio_order`): `lower_first` means a lower number is more urgent (Linux,
///   Zephyr, ThreadX, seL4 inverted), found with `lowest_set_bit`; `higher_first` means a
///   higher number is more urgent (FreeRTOS, seL4's natural order), found with
///   `highest_set_bit`. The stored layout is the same; only the scans differ.
/// - Invariants, named after the seL4 proofs (l4v) and checked by `verify()`:
///   `valid_bitmapQ()`: every non-zero L2 word has its L1 bit set, and no bit at or beyond N is
///   set; `no_L1_orphans()`: every set L1 bit has a non-zero L2 word. (The queue-level meaning
///   of valid_bitmapQ, bit set <=> list non-empty, is checked by prio_array's `verify()`.)
/// - Complexity: set, clear, test, empty, find_first, find_next: O(1) (at most two scans);
///   verify: O(N/64); count: O(N/64). The internal `clear_first_unchecked(p)` (clear the most
///   urgent mark, return the next one) is O(1) too: one scan while p's word keeps a mark.
/// - For N > 64 the queues do not call `find_first` on their pick path: prio_array and
///   stair_array cache the most urgent index and call the bitmap only when the best list
///   empties (detail::prio_lists in queue/prio_array.hpp). The two-level scan therefore stays
///   seL4's for every N > 64; a flat scan of the L2 words for 64 < N <= 192 (the hand-written
///   140-level queue's shape) would only change that rescan.
/// - Misuse: a priority >= N is reported (`SCHEDCORE_MISUSE`) and refused: set/clear do
///   nothing, test answers false, find_next answers `npos`. `find_first()` on an empty bitmap
///   is a precondition violation (`SCHEDCORE_ASSERT`: bit scans of zero are undefined); debug
///   builds report it and answer `npos`.
/// - Beyond 4096: the cap is `static_assert`ed. A third level (an L0 word over 64 L1 words,
///   262144 priorities: three scans) follows the same pattern, as does a `prio_bitmap` of 64
///   `prio_bitmap<4096>`s; no scheduler in schedcore's scope needs it, deadline-sized key
///   spaces belong in a tree.
#ifndef SCHEDCORE_BITMAP_PRIO_BITMAP_HPP
#define SCHEDCORE_BITMAP_PRIO_BITMAP_HPP

#include "schedcore/core/assert.hpp"
#include "schedcore/core/bitops.hpp"
#include "schedcore/core/traits.hpp"
#include "schedcore/core/types.hpp"

namespace schedcore {

/// Which end of the priority range is the most urgent.
enum class prio_order : u8 {
  lower_first,   ///< priority 0 is the most urgent (Linux, Zephyr, ThreadX)
  higher_first,  ///< priority N-1 is the most urgent (FreeRTOS)
};

namespace detail {

/// Storage of the bitmap: one word, or an L1 summary word plus ceil(N/64) L2 words.
template <unsigned N, bool TwoLevel = (N > 64)>
struct prio_bitmap_storage {
  using word = conditional_t<(N <= 32), u32, u64>;
  static constexpr unsigned nr_words = 1;
  word l2_[1] = {};
};
/// @cond INTERNAL
template <unsigned N>
struct prio_bitmap_storage<N, true> {
  using word = u64;
  static constexpr unsigned nr_words = (N + 63) / 64;
  u64 l1_ = 0;
  u64 l2_[nr_words] = {};
};
/// @endcond

}  // namespace detail

/// A set of priorities with O(1) most-urgent lookup.
/// @tparam N     number of priorities, 1..4096
/// @tparam Order which end is most urgent (default `lower_first`, as Linux)
template <unsigned N, prio_order Order = prio_order::lower_first>
class prio_bitmap : detail::prio_bitmap_storage<N> {
  static_assert(N >= 1, "prio_bitmap needs at least one priority");
  static_assert(N <= 4096,
                "prio_bitmap supports at most 4096 priorities (two 64-bit levels); see the "
                "implementation notes of bitmap/prio_bitmap.hpp for a third level");
  using base = detail::prio_bitmap_storage<N>;
  using word = typename base::word;
  static constexpr unsigned word_bits = sizeof(word) * 8;

 public:
  /// Number of priorities.
  static constexpr unsigned nr_prios = N;
  /// Which end is most urgent.
  static constexpr prio_order order = Order;
  /// True for the two-level (L1/L2) form, N > 64.
  static constexpr bool two_level = N > 64;
  /// "No such priority" (answer of `find_next`, and of `find_first` on misuse).
  static constexpr unsigned npos = ~0u;

  /// An empty bitmap (constant-initialisable).
  constexpr prio_bitmap() noexcept = default;

  /// Marks priority `p` non-empty. Misuse (p >= N) refused. O(1).
  SCHEDCORE_ALWAYS_INLINE constexpr void set(unsigned p) noexcept {
    if (SCHEDCORE_MISUSE(p >= N)) return;
    set_unchecked(p);
  }
  /// Marks priority `p` empty. Misuse (p >= N) refused. O(1).
  SCHEDCORE_ALWAYS_INLINE constexpr void clear(unsigned p) noexcept {
    if (SCHEDCORE_MISUSE(p >= N)) return;
    clear_unchecked(p);
  }
  /// True when priority `p` is marked. Misuse (p >= N) answers false. O(1).
  constexpr bool test(unsigned p) const noexcept {
    if (SCHEDCORE_MISUSE(p >= N)) return false;
    return (this->l2_[p / word_bits] >> (p % word_bits)) & 1u;
  }
  /// True when no priority is marked. O(1).
  SCHEDCORE_ALWAYS_INLINE constexpr bool empty() const noexcept {
    if constexpr (two_level) return this->l1_ == 0;
    else return this->l2_[0] == 0;
  }
  /// Removes every mark. O(N/64).
  constexpr void reset() noexcept {
    if constexpr (two_level) this->l1_ = 0;
    for (unsigned i = 0; i < base::nr_words; ++i) this->l2_[i] = 0;
  }

  /// The most urgent marked priority. @pre !empty() (debug builds report and answer npos). O(1).
  SCHEDCORE_ALWAYS_INLINE constexpr unsigned find_first() const noexcept {
    SCHEDCORE_ASSERT(!empty());
    if (SCHEDCORE_ENABLE_ASSERTS && empty()) return npos;
    return find_first_unchecked();
  }

  /// The most urgent marked priority strictly less urgent than `p`, or `npos`. Iterates the
  /// marks in urgency order: `for (q = find_first(); q != npos; q = find_next(q))`.
  /// Misuse (p >= N) answers npos. O(1).
  constexpr unsigned find_next(unsigned p) const noexcept {
    if (SCHEDCORE_MISUSE(p >= N)) return npos;
    const unsigned i = p / word_bits;
    const unsigned b = p % word_bits;
    const word w = this->l2_[i] & less_urgent_mask<word>(b);
    if (w != 0) return i * word_bits + scan(w);
    if constexpr (two_level) {
      const u64 l1 = this->l1_ & less_urgent_mask<u64>(i);
      if (l1 == 0) return npos;
      const unsigned j = scan(l1);
      return j * 64 + scan(this->l2_[j]);
    } else {
      return npos;
    }
  }

  /// Number of marked priorities. O(N/64).
  constexpr unsigned count() const noexcept {
    unsigned n = 0;
    for (unsigned i = 0; i < base::nr_words; ++i) n += popcount64(this->l2_[i]);
    return n;
  }

  /// seL4's `valid_bitmapQ` at bitmap level: every non-zero L2 word has its L1 bit, and no bit
  /// at or beyond N is set. O(N/64).
  constexpr bool valid_bitmapQ() const noexcept {
    constexpr unsigned tail = N % word_bits;
    if constexpr (tail != 0) {
      const word beyond = static_cast<word>(~word{0} << tail);
      if ((this->l2_[base::nr_words - 1] & beyond) != 0) return false;
    }
    if constexpr (two_level) {
      for (unsigned i = 0; i < base::nr_words; ++i) {
        if (this->l2_[i] != 0 && ((this->l1_ >> i) & 1u) == 0) return false;
      }
      if (base::nr_words < 64 && (this->l1_ >> (base::nr_words % 64)) != 0) return false;
    }
    return true;
  }
  /// seL4's `bitmapQ_no_L1_orphans`: every set L1 bit has a non-zero L2 word (trivially true
  /// for the one-word form). O(N/64).
  constexpr bool no_L1_orphans() const noexcept {
    if constexpr (two_level) {
      for (unsigned i = 0; i < base::nr_words; ++i) {
        if (((this->l1_ >> i) & 1u) != 0 && this->l2_[i] == 0) return false;
      }
    }
    return true;
  }
  /// Both invariants: `valid_bitmapQ() && no_L1_orphans()`. O(N/64).
  constexpr bool verify() const noexcept { return valid_bitmapQ() && no_L1_orphans(); }

  /// @cond INTERNAL
  // Unchecked forms for containers that have already validated `p` or non-emptiness.
  SCHEDCORE_ALWAYS_INLINE constexpr void set_unchecked(unsigned p) noexcept {
    if constexpr (two_level) {
      this->l2_[p / 64] |= bit64(p % 64);
      this->l1_ |= bit64(p / 64);
    } else {
      this->l2_[0] |= static_cast<word>(word{1} << p);
    }
  }
  SCHEDCORE_ALWAYS_INLINE constexpr void clear_unchecked(unsigned p) noexcept {
    if constexpr (two_level) {
      u64& w = this->l2_[p / 64];
      w &= ~bit64(p % 64);
      if (w == 0) this->l1_ &= ~bit64(p / 64);
    } else {
      this->l2_[0] &= static_cast<word>(~(word{1} << p));
    }
  }
  /// Clears `p`, the most urgent marked priority, and returns the most urgent one left (npos
  /// when none): `clear(p); return empty() ? npos : find_first();` for a queue that caches its
  /// find-first. Cheaper than that sequence because every bit more urgent than `p` is known to
  /// be clear: if `p`'s word is still non-zero the answer is in that word (one scan, no L1
  /// read); only when the word empties does the L1 summary get scanned. @pre p == find_first()
  SCHEDCORE_ALWAYS_INLINE constexpr unsigned clear_first_unchecked(unsigned p) noexcept {
    if constexpr (two_level) {
      unsigned i = p / 64;
      u64 w = this->l2_[i] & ~bit64(p % 64);
      this->l2_[i] = w;
      if (w == 0) {  // p's word emptied: its L1 bit goes, the answer is in another word
        const u64 l1 = this->l1_ & ~bit64(i);
        this->l1_ = l1;
        if (l1 == 0) return npos;
        i = scan(l1);
        w = this->l2_[i];
      }
      return i * 64 + scan(w);  // one scan site for both paths (code size on small cores)
    } else {
      const word w = static_cast<word>(this->l2_[0] & ~(word{1} << p));
      this->l2_[0] = w;
      return w != 0 ? scan(w) : npos;
    }
  }
  SCHEDCORE_ALWAYS_INLINE constexpr unsigned find_first_unchecked() const noexcept {
    if constexpr (two_level) {
      const unsigned i = scan(this->l1_);
      return i * 64 + scan(this->l2_[i]);
    } else {
      return scan(this->l2_[0]);
    }
  }
  /// @endcond

 private:
  /// The most urgent set bit of a non-zero word.
  template <class W>
  SCHEDCORE_ALWAYS_INLINE static constexpr unsigned scan(W w) noexcept {
    if constexpr (Order == prio_order::lower_first) return lowest_set_bit(w);
    else return highest_set_bit(w);
  }
  /// Bits strictly less urgent than bit `b` of a word.
  template <class W>
  static constexpr W less_urgent_mask(unsigned b) noexcept {
    if constexpr (Order == prio_order::lower_first) return static_cast<W>(static_cast<W>(~W{0} << b) << 1);
    else return static_cast<W>((W{1} << b) - 1);
  }
};

}  // namespace schedcore

#endif
