/// @file
/// @brief The red-black tree hook a task embeds (three words), its link mode, the default
/// NodeTraits that rb_algorithms works on, and the accessors that map a task to its hook.
///
/// @par Implementation notes
/// - Layout: `sc_parent_color` holds the parent pointer with the node colour in bit 0
///   (0 = red, 1 = black), then `sc_child[2]` (left, right). Children are an array so that a
///   descent can index them with the comparison result (`child[!less(new, cur)]`), which
///   compilers turn into an indexed load instead of a branch; see rb_tree.hpp.
/// - Every node is at least pointer-aligned (4 bytes on 32-bit targets), so bit 1 of a real
///   parent pointer is always 0. The value 2 (`rb_unlinked_value`) therefore can never be the
///   state of a linked node, and marks an unlinked hook: it is what every hook holds after
///   construction and, in `link_mode::safe`, after erase. It is a constant, not the hook's own
///   address, so the constructor stays `constexpr` (no static constructors for static tasks).
/// - `link_mode::normal` never writes the hook on erase and never checks it on insert (the
///   kernel's choice); `link_mode::safe` resets it on erase (three stores: the
///   unlinked mark and both child pointers) and checks it on insert
///   and erase, so a second enqueue or a dequeue of an idle task is refused and reported
///   instead of corrupting the tree.
/// - Copying a hook yields an unlinked hook and assigning to one changes nothing (the
///   Boost.Intrusive rule): copying a task must never copy tree links.
/// - Omitted on purpose: a destructor that asserts "unlinked" (it would make tasks
///   non-trivially destructible, and static tasks would then need an exit-time destructor
///   registration, which freestanding builds cannot have).
#ifndef SCHEDCORE_INTRUSIVE_RB_HOOK_HPP
#define SCHEDCORE_INTRUSIVE_RB_HOOK_HPP

#include "schedcore/core/config.hpp"
#include "schedcore/core/traits.hpp"
#include "schedcore/core/types.hpp"

namespace schedcore {

/// How much a hook protects itself against misuse.
enum class link_mode : u8 {
  normal,  ///< no bookkeeping: insert of a linked hook or erase of an unlinked one is undefined
  safe,    ///< erase resets the hook; insert/erase check it and refuse misuse (`SCHEDCORE_MISUSE`)
};

/// Colour of a red-black node, as stored in bit 0 of `rb_node::sc_parent_color`.
enum class rb_color : uptr {
  red = 0,    ///< a red node (bit 0 clear: a red node's field *is* its parent pointer)
  black = 1,  ///< a black node
};

/// The `sc_parent_color` value of an unlinked hook. Bit 1 can never be set in a linked node's
/// field because parents are at least 4-byte aligned.
inline constexpr uptr rb_unlinked_value = 2;

/// The three words of tree linkage. rb_algorithms works on this type through rb_node_traits;
/// tasks embed an rb_hook (which is an rb_node) rather than an rb_node directly.
struct rb_node {
  /// Parent pointer | colour bit (rb_color); `rb_unlinked_value` when not in a tree.
  uptr sc_parent_color = rb_unlinked_value;
  /// Children: `sc_child[0]` is the left, `sc_child[1]` the right subtree (nullptr if none).
  rb_node* sc_child[2] = {nullptr, nullptr};
};

static_assert(sizeof(rb_node) == 3 * sizeof(void*), "rb_node must be exactly three words");
static_assert(alignof(rb_node) >= 4, "bit 1 of a parent pointer must be free for the unlinked mark");

/// The hook a task embeds to be a member of one rb_tree.
///
/// @tparam Mode link_mode::normal (no checks, no reset) or link_mode::safe.
/// @tparam Tag  any type, to tell apart several hooks in one task (a task in two trees).
template <link_mode Mode = link_mode::normal, class Tag = void>
struct rb_hook : rb_node {
  /// The hook's link mode.
  static constexpr link_mode mode = Mode;
  /// The hook's tag.
  using tag = Tag;

  /// An unlinked hook.
  constexpr rb_hook() noexcept = default;
  /// Copying a task never copies its tree links: the copy is unlinked.
  constexpr rb_hook(const rb_hook&) noexcept : rb_node() {}
  /// Assigning a task leaves the target's links untouched.
  constexpr rb_hook& operator=(const rb_hook&) noexcept { return *this; }

  /// True when the hook is in a tree. Exact in link_mode::safe only; a normal hook keeps stale
  /// links after erase, so there this reads true from the first insert on.
  constexpr bool is_linked() const noexcept { return sc_parent_color != rb_unlinked_value; }
};

static_assert(sizeof(rb_hook<link_mode::safe>) == 3 * sizeof(void*), "rb_hook must be three words");
static_assert(sizeof(rb_hook<link_mode::normal>) == 3 * sizeof(void*), "rb_hook must be three words");

/// The NodeTraits of rb_node (colour packed in the parent pointer): the interface through which
/// rb_algorithms reads and writes links. A port with its own node layout writes a struct with
/// the same static members and `using node = ...`.
struct rb_node_traits {
  /// The node type the algorithms manipulate.
  using node = rb_node;

  /// Parent of `n` (nullptr for the root). @pre `n` is linked
  static SCHEDCORE_ALWAYS_INLINE node* get_parent(const node* n) noexcept {
    return reinterpret_cast<node*>(n->sc_parent_color & ~static_cast<uptr>(1));
  }
  /// Sets the parent of `n`, keeping its colour.
  static SCHEDCORE_ALWAYS_INLINE void set_parent(node* n, node* p) noexcept {
    n->sc_parent_color = reinterpret_cast<uptr>(p) | (n->sc_parent_color & 1u);
  }
  /// Sets parent and colour of `n` in one store.
  static SCHEDCORE_ALWAYS_INLINE void set_parent_color(node* n, node* p, rb_color c) noexcept {
    n->sc_parent_color = reinterpret_cast<uptr>(p) | static_cast<uptr>(c);
  }
  /// Gives `to` the parent and colour of `from` (one load, one store).
  static SCHEDCORE_ALWAYS_INLINE void copy_parent_color(node* to, const node* from) noexcept {
    to->sc_parent_color = from->sc_parent_color;
  }
  /// True when `n` is black. @pre `n` is linked
  static SCHEDCORE_ALWAYS_INLINE bool is_black(const node* n) noexcept { return (n->sc_parent_color & 1u) != 0; }
  /// True when `n` is red. @pre `n` is linked
  static SCHEDCORE_ALWAYS_INLINE bool is_red(const node* n) noexcept { return (n->sc_parent_color & 1u) == 0; }
  /// Makes `n` black, keeping its parent.
  static SCHEDCORE_ALWAYS_INLINE void set_black(node* n) noexcept { n->sc_parent_color |= 1u; }
  /// Makes `n` red, keeping its parent.
  static SCHEDCORE_ALWAYS_INLINE void set_red(node* n) noexcept { n->sc_parent_color &= ~static_cast<uptr>(1); }
  /// Child `dir` of `n` (0 = left, 1 = right), nullptr if none.
  static SCHEDCORE_ALWAYS_INLINE node* get_child(const node* n, unsigned dir) noexcept { return n->sc_child[dir]; }
  /// Address of child slot `dir` of `n`, for descents that remember where to link.
  static SCHEDCORE_ALWAYS_INLINE node** child_slot(node* n, unsigned dir) noexcept { return &n->sc_child[dir]; }
  /// Sets child `dir` of `n`.
  static SCHEDCORE_ALWAYS_INLINE void set_child(node* n, unsigned dir, node* c) noexcept { n->sc_child[dir] = c; }
  /// Marks `n` unlinked (link_mode::safe erase, and clear()).
  static SCHEDCORE_ALWAYS_INLINE void init_unlinked(node* n) noexcept {
    n->sc_parent_color = rb_unlinked_value;
    n->sc_child[0] = nullptr;
    n->sc_child[1] = nullptr;
  }
  /// True when `n` carries the unlinked mark.
  static SCHEDCORE_ALWAYS_INLINE bool is_unlinked(const node* n) noexcept {
    return n->sc_parent_color == rb_unlinked_value;
  }
};

/// ValueTraits for a task that *is* its hook by inheritance: `struct task : rb_hook<> {...}`.
///
/// A ValueTraits maps a task to its hook and back: `value_type`, `hook_type` (an rb_hook),
/// `static hook_type& to_hook(value_type&)` and `static value_type& from_hook(hook_type&)`.
template <class T, class Hook = rb_hook<>>
struct rb_base {
  using value_type = T;    ///< the task type
  using hook_type = Hook;  ///< the hook type (a base class of T)
  /// The hook of `t`.
  static SCHEDCORE_ALWAYS_INLINE hook_type& to_hook(value_type& t) noexcept { return static_cast<hook_type&>(t); }
  /// The task that contains `h`.
  static SCHEDCORE_ALWAYS_INLINE value_type& from_hook(hook_type& h) noexcept { return static_cast<value_type&>(h); }
};

/// ValueTraits for a hook held as a data member: `rb_member<&task::run_node>`.
///
/// The way back from hook to task subtracts the member's offset, read from the member
/// pointer's representation (a byte offset on the Itanium C++ ABI, which GCC and Clang use on
/// every target schedcore supports: x86-64, AArch32/EABI, RISC-V).
template <auto Member>
struct rb_member {
  /// the task type
  using value_type = typename detail::member_pointer_traits<decltype(Member)>::class_type;
  /// the hook type
  using hook_type = typename detail::member_pointer_traits<decltype(Member)>::member_type;

  /// The hook of `t`.
  static SCHEDCORE_ALWAYS_INLINE hook_type& to_hook(value_type& t) noexcept { return t.*Member; }
  /// The task that contains `h` (container_of).
  static SCHEDCORE_ALWAYS_INLINE value_type& from_hook(hook_type& h) noexcept {
    // Through void*: the task is as aligned as it is, which -Wcast-align cannot know.
    return *static_cast<value_type*>(static_cast<void*>(reinterpret_cast<char*>(&h) - detail::member_offset(Member)));
  }
};

}  // namespace schedcore

#endif
