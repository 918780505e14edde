/// @file
/// @brief `list<T, Accessor, ConstantTimeSize>`: a circular doubly linked intrusive list with a
/// sentinel head (the kernel's `list_head`, Boost.Intrusive's `list`).
///
/// @par Implementation notes
/// - Structure: the head is a `detail::list_node` sentinel inside the list object; the
///   elements' hooks and the sentinel form one ring. An empty list's sentinel points to
///   itself, so no operation has a null special case. The constructor is `constexpr`, so a
///   global list is constant-initialised (no static constructor), and the destructor is
///   trivial (no `atexit` registration).
/// - Invariants (checked by `verify()`): every `next->prev` is the node itself; no link is
///   null; the walk from the sentinel returns to it; with `ConstantTimeSize` the counter equals
///   the walk's length.
/// - Complexity: push/pop front/back, insert, erase, splice (whole list and one node), swap,
///   front/back, empty: O(1). `size()`: O(1) with `ConstantTimeSize` (default), else O(n).
///   `clear()`: O(1) in normal link mode, O(n) in safe mode (every hook is nulled).
///   `verify()`: O(n).
/// - Misuse (safe link mode only, see intrusive/list_hook.hpp): inserting a linked element or
///   erasing an unlinked one is reported with `SCHEDCORE_MISUSE` and refused, no state change.
///   Erasing an element that is linked in *another* list is not detectable in O(1) and is
///   undefined (with `ConstantTimeSize` both counters go wrong; `verify()` then fails).
/// - Omissions: the list is neither copyable nor movable (the sentinel's address is part of
///   the ring); use `swap()` or `splice()`. No allocation, no exceptions, no sorting.
#ifndef SCHEDCORE_INTRUSIVE_LIST_HPP
#define SCHEDCORE_INTRUSIVE_LIST_HPP

#include "schedcore/core/assert.hpp"
#include "schedcore/core/types.hpp"
#include "schedcore/intrusive/list_hook.hpp"

namespace schedcore {

/// @cond INTERNAL
namespace detail {
/// A list's storage: the sentinel, and the element counter only when the list keeps one, so
/// that a list without `ConstantTimeSize` is two words (a wait queue per object on a small
/// target). One class holds every data member, so the list stays standard-layout.
template <bool Counted>
struct list_storage {
  list_node head_{};  ///< sentinel: head_.sc_next is the front, head_.sc_prev the back
  usize size_ = 0;    ///< element count
};
template <>
struct list_storage<false> {
  list_node head_{};  ///< sentinel: head_.sc_next is the front, head_.sc_prev the back
};
}  // namespace detail
/// @endcond

/// Circular doubly linked intrusive list.
/// @tparam T                the element type (embeds a `list_hook`)
/// @tparam Accessor         `list_base<T, Hook>` (default) or `list_member<&T::hook>`
/// @tparam ConstantTimeSize keep an element counter so `size()` is O(1) (default true)
template <class T, class Accessor = list_base<T>, bool ConstantTimeSize = true>
class list : private detail::list_storage<ConstantTimeSize> {
  using storage = detail::list_storage<ConstantTimeSize>;
  using storage::head_;
  using node = detail::list_node;
  using algo = detail::list_algo;
  using access = detail::node_access<Accessor>;
  static_assert(is_same_v<typename Accessor::value_type, T>, "accessor is for another element type");

  struct no_conversion {};
  template <bool Const>
  class iter {
    friend class list;
    using node_ptr = conditional_t<Const, const node*, node*>;
    node_ptr n_ = nullptr;
    constexpr explicit iter(node_ptr n) noexcept : n_(n) {}

   public:
    using value_type = T;
    using reference = conditional_t<Const, const T&, T&>;
    using pointer = conditional_t<Const, const T*, T*>;
    constexpr iter() noexcept = default;
    constexpr iter(const iter&) noexcept = default;
    constexpr iter& operator=(const iter&) noexcept = default;
    // mutable -> const only. (Written as `iter(const iter<false>&)` this would be the mutable
    // iterator's own copy constructor, which leaves its assignment deprecated under
    // -Wdeprecated-copy; a mutable iterator's conversion takes a type nothing converts to, and
    // its body is never instantiated.)
    constexpr iter(const conditional_t<Const, iter<false>, no_conversion>& other) noexcept  // NOLINT
        : n_(other.n_) {}
    reference operator*() const noexcept { return access::to_value(*n_); }
    pointer operator->() const noexcept { return &access::to_value(*n_); }
    constexpr iter& operator++() noexcept { n_ = n_->sc_next; return *this; }
    constexpr iter operator++(int) noexcept { iter t = *this; n_ = n_->sc_next; return t; }
    constexpr iter& operator--() noexcept { n_ = n_->sc_prev; return *this; }
    constexpr iter operator--(int) noexcept { iter t = *this; n_ = n_->sc_prev; return t; }
    friend constexpr bool operator==(iter a, iter b) noexcept { return a.n_ == b.n_; }
    friend constexpr bool operator!=(iter a, iter b) noexcept { return a.n_ != b.n_; }
  };

 public:
  using value_type = T;                                   ///< element type
  using accessor = Accessor;                              ///< hook accessor
  using hook_type = typename Accessor::hook_type;         ///< hook type
  using size_type = usize;                                ///< element count type
  using iterator = iter<false>;                           ///< bidirectional iterator
  using const_iterator = iter<true>;                      ///< bidirectional const iterator
  static constexpr bool constant_time_size = ConstantTimeSize;  ///< whether size() is O(1)

  /// An empty list; constant-initialised when the list is a global.
  constexpr list() noexcept : storage{} { algo::init_header(head_); }
  list(const list&) = delete;             ///< not copyable (intrusive)
  list& operator=(const list&) = delete;  ///< not assignable (intrusive)
  ~list() = default;                      ///< trivial: a non-empty list leaves stale hooks behind

  /// True when the list has no element. O(1).
  constexpr bool empty() const noexcept { return algo::empty(head_); }
  /// Number of elements: O(1) with `ConstantTimeSize`, else O(n).
  constexpr size_type size() const noexcept {
    if constexpr (ConstantTimeSize) return this->size_;
    else return algo::count(head_);
  }

  /// First element, or nullptr when empty. O(1).
  T* front() noexcept { return empty() ? nullptr : &access::to_value(*head_.sc_next); }
  /// First element, or nullptr when empty. O(1).
  const T* front() const noexcept { return empty() ? nullptr : &access::to_value(*head_.sc_next); }
  /// Last element, or nullptr when empty. O(1).
  T* back() noexcept { return empty() ? nullptr : &access::to_value(*head_.sc_prev); }
  /// Last element, or nullptr when empty. O(1).
  const T* back() const noexcept { return empty() ? nullptr : &access::to_value(*head_.sc_prev); }

  /// Inserts `v` at the front. @pre `v` is unlinked (safe mode: misuse refused). O(1).
  void push_front(T& v) noexcept {
    node& n = access::to_node(v);
    if (SCHEDCORE_MISUSE(access::linked(n))) return;
    algo::link_after(head_, n);
    inc();
  }
  /// Inserts `v` at the back. @pre `v` is unlinked (safe mode: misuse refused). O(1).
  void push_back(T& v) noexcept {
    node& n = access::to_node(v);
    if (SCHEDCORE_MISUSE(access::linked(n))) return;
    algo::link_before(head_, n);
    inc();
  }
  /// Inserts `v` before `pos` and returns an iterator to it.
  /// @pre `v` is unlinked (safe mode: misuse refused, returns `pos`). O(1).
  iterator insert(const_iterator pos, T& v) noexcept {
    node& n = access::to_node(v);
    if (SCHEDCORE_MISUSE(access::linked(n))) return iterator(const_cast<node*>(pos.n_));
    algo::link_before(*const_cast<node*>(pos.n_), n);
    inc();
    return iterator(&n);
  }

  /// Removes and returns the first element, or nullptr when empty. O(1).
  T* pop_front() noexcept {
    if (empty()) return nullptr;
    node& n = *head_.sc_next;
    remove(n);
    return &access::to_value(n);
  }
  /// Removes and returns the last element, or nullptr when empty. O(1).
  T* pop_back() noexcept {
    if (empty()) return nullptr;
    node& n = *head_.sc_prev;
    remove(n);
    return &access::to_value(n);
  }
  /// Removes `v`. @pre `v` is in this list (safe mode: an unlinked `v` is refused). O(1).
  void erase(T& v) noexcept {
    node& n = access::to_node(v);
    if (SCHEDCORE_MISUSE(access::unlinked(n))) return;
    remove(n);
  }
  /// Removes the element at `pos` and returns an iterator to the next one.
  /// @pre `pos` is a dereferenceable iterator of this list. O(1).
  iterator erase(const_iterator pos) noexcept {
    node& n = *const_cast<node*>(pos.n_);
    if (SCHEDCORE_MISUSE(&n == &head_)) return end();
    node* const next = n.sc_next;
    remove(n);
    return iterator(next);
  }
  /// Removes every element. O(1) in normal mode, O(n) in safe mode (hooks are nulled).
  void clear() noexcept {
    if constexpr (access::safe) {
      node* p = head_.sc_next;
      while (p != &head_) {
        node* const next = p->sc_next;
        access::mark_unlinked(*p);
        p = next;
      }
    }
    algo::init_header(head_);
    if constexpr (ConstantTimeSize) this->size_ = 0;
  }

  /// Moves every element of `other` before `pos` (O(1) with or without size counters: the
  /// moved count is `other`'s counter). Splicing a list into itself is a no-op.
  void splice(const_iterator pos, list& other) noexcept {
    if (&other == this) return;
    algo::splice_all_before(*const_cast<node*>(pos.n_), other.head_);
    if constexpr (ConstantTimeSize) {
      this->size_ += other.size_;
      other.size_ = 0;
    }
  }
  /// Moves the element `v` of `other` before `pos` (`other` may be `*this`). O(1).
  /// @pre `v` is in `other` (safe mode: an unlinked `v` is refused).
  void splice(const_iterator pos, list& other, T& v) noexcept {
    node& n = access::to_node(v);
    if (SCHEDCORE_MISUSE(access::unlinked(n))) return;
    node& p = *const_cast<node*>(pos.n_);
    if (&p == &n || p.sc_prev == &n) return;  // already there
    algo::unlink(n);
    algo::link_before(p, n);
    other.dec();
    inc();
  }
  /// Moves every element of `other` to the back of this list. O(1).
  void splice_back(list& other) noexcept { splice(end(), other); }
  /// Moves every element of `other` to the front of this list. O(1).
  void splice_front(list& other) noexcept { splice(begin(), other); }

  /// Exchanges the contents of two lists. O(1).
  void(swap)(list& other) noexcept {  // parenthesised: a swap(a, b) macro cannot expand it
    if (&other == this) return;
    algo::swap_rings(head_, other.head_);
    if constexpr (ConstantTimeSize) {
      const size_type n = this->size_;
      this->size_ = other.size_;
      other.size_ = n;
    }
  }

  /// Iterator to the first element.
  iterator begin() noexcept { return iterator(head_.sc_next); }
  /// Past-the-end iterator (the sentinel).
  iterator end() noexcept { return iterator(&head_); }
  /// Const iterator to the first element.
  const_iterator begin() const noexcept { return const_iterator(head_.sc_next); }
  /// Const past-the-end iterator.
  const_iterator end() const noexcept { return const_iterator(&head_); }
  /// Const iterator to the first element.
  const_iterator cbegin() const noexcept { return begin(); }
  /// Const past-the-end iterator.
  const_iterator cend() const noexcept { return end(); }
  /// Iterator to `v`. @pre `v` is in this list. O(1).
  iterator iterator_to(T& v) noexcept { return iterator(&access::to_node(v)); }
  /// Const iterator to `v`. @pre `v` is in this list. O(1).
  const_iterator iterator_to(const T& v) const noexcept { return const_iterator(&access::to_node(v)); }

  /// Structural check (O(n)): ring consistency (every `next->prev` is the node, no null
  /// link, the walk returns to the head) and, with `ConstantTimeSize`, the counter.
  bool verify() const noexcept {
    usize n = 0;
    if (!algo::verify_ring(head_, n)) return false;
    if constexpr (ConstantTimeSize) {
      if (n != this->size_) return false;
    }
    return true;
  }

 private:
  /// @cond INTERNAL
  void inc() noexcept {
    if constexpr (ConstantTimeSize) ++this->size_;
  }
  void dec() noexcept {
    if constexpr (ConstantTimeSize) --this->size_;
  }
  void remove(node& n) noexcept {
    algo::unlink(n);
    access::mark_unlinked(n);
    dec();
  }
  /// @endcond
};

}  // namespace schedcore

#endif
