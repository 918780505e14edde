/// @file
/// @brief Red-black tree node algorithms: static functions over a NodeTraits, with optional
/// augmentation callbacks. No container, no comparison: callers own the search (Linux's split,
/// Boost.Intrusive's `rbtree_algorithms`). A kernel can use this header alone.
///
/// @par Implementation notes
/// Algorithm: the classic bottom-up red-black tree (Bayer 1972; Guibas and Sedgewick 1978;
/// CLRS ch. 13) with the two refinements Linux's lib/rbtree.c popularised: colour packed into
/// the parent pointer, and mirror cases folded by direction (`dir` is 0 for left, 1 for right,
/// `!dir` the other side) so each rebalancing case is written once.
///
/// Properties maintained (the "five rules"):
///  1. every node is red or black;
///  2. the root is black;
///  3. (leaves are the nullptr children, counted black);
///  4. a red node has no red child;
///  5. every path from a node down to a nullptr child passes the same number of black nodes.
/// From 4 and 5 the longest root-to-leaf path is at most twice the shortest, so the height of a
/// tree of n nodes is at most 2 log2(n + 1): every operation below is O(log n).
///
/// Per operation: link O(1); insert_fixup O(log n) worst, O(1) amortised, at most 2 rotations;
/// erase O(log n) worst, O(1) amortised recolourings, at most 3 rotations; erase_leftmost (the
/// pop of a minimum) the same bounds, O(1) unless a black leaf leaves; next/prev O(log n)
/// worst, O(1) amortised over an in-order walk; first/last O(log n).
///
/// Diagrams: upper case = black, lower case = red, `?` = either colour; drawn for `dir` = 0
/// (the node of interest on the left); the code handles both mirrors.
///
/// Augmentation (the Linux `rb_augment_callbacks` contract): a Callbacks type with
///  - `static constexpr bool enabled` (false lets every call and its argument set-up vanish),
///  - `propagate(n, stop)`: recompute the augmented value of n and its ancestors up to, not
///    including, `stop` (nullptr: to the root); it may stop early at a node whose value did
///    not change;
///  - `copy(from, to)`: `to` takes `from`'s augmented value (`to` replaced `from`);
///  - `rotate(old_top, new_top)`: after a rotation that put `new_top` where `old_top` was:
///    `new_top` takes `old_top`'s value (same node set) and `old_top` is recomputed;
///  - `leaf(n)`: initialise the value of a freshly linked leaf;
///  - optionally `leaf_propagate(n)`: the same as `leaf(n)` followed by `propagate(parent of
///    n, nullptr)`, for an augment that can update the ancestors of a fresh leaf more cheaply
///    than by recomputation (a subtree minimum only needs "is the leaf's value better than the
///    stored one?" per level). insert() calls it when Callbacks declares it;
///  - optionally `propagate_erased(n, stop, gone)`: the same as `propagate(n, stop)` when the
///    only change below n is that node `gone` (unlinked, its value still readable) left the
///    subtrees from n up to stop, for an augment that can tell from `gone`'s value alone that
///    an ancestor is unaffected (a subtree minimum other than gone's value stays). The erase
///    paths call it when Callbacks declares it.
/// rb_no_callbacks implements them as empty inline functions: with it, the algorithms compile
/// to the plain red-black tree.
///
/// Deliberately omitted: top-down (single-pass) variants (more rotations per insert), a
/// header/sentinel node (a root slot owned by the caller is enough, and is what kernels use),
/// replace-in-place and rightmost caching (no user in a scheduler; see rb_tree.hpp).
#ifndef SCHEDCORE_INTRUSIVE_RB_ALGORITHMS_HPP
#define SCHEDCORE_INTRUSIVE_RB_ALGORITHMS_HPP

#include "schedcore/core/config.hpp"
#include "schedcore/core/traits.hpp"
#include "schedcore/core/types.hpp"
#include "schedcore/intrusive/rb_hook.hpp"

namespace schedcore {

/// @cond INTERNAL
namespace detail {
/// True when Callbacks declares the optional `leaf_propagate(node*)` (see rb_algorithms).
template <class C, class N, class = void>
inline constexpr bool rb_has_leaf_propagate = false;
template <class C, class N>
inline constexpr bool rb_has_leaf_propagate<C, N, void_t<decltype(C::leaf_propagate(declval<N*>()))>> = true;
/// True when Callbacks declares the optional `propagate_erased(node*, node*, const node*)`.
template <class C, class N, class = void>
inline constexpr bool rb_has_propagate_erased = false;
template <class C, class N>
inline constexpr bool rb_has_propagate_erased<
    C, N, void_t<decltype(C::propagate_erased(declval<N*>(), declval<N*>(), declval<const N*>()))>> = true;
}  // namespace detail
/// @endcond

/// Augmentation callbacks that do nothing; the default of every algorithm.
template <class NodeTraits = rb_node_traits>
struct rb_no_callbacks {
  /// The node type.
  using node = typename NodeTraits::node;
  /// False: callers skip augmentation work entirely.
  static constexpr bool enabled = false;
  /// Nothing to recompute.
  static SCHEDCORE_ALWAYS_INLINE void propagate(node*, node*) noexcept {}
  /// Nothing to copy.
  static SCHEDCORE_ALWAYS_INLINE void copy(const node*, node*) noexcept {}
  /// Nothing to fix after a rotation.
  static SCHEDCORE_ALWAYS_INLINE void rotate(node*, node*) noexcept {}
  /// Nothing to initialise.
  static SCHEDCORE_ALWAYS_INLINE void leaf(node*) noexcept {}
};

/// Red-black node algorithms over `NodeTraits` (see rb_node_traits for the required members:
/// `node`, `get_parent`, `set_parent`, `set_parent_color`, `copy_parent_color`, `is_black`,
/// `is_red`, `set_black`, `set_red`, `get_child`, `child_slot`, `set_child`).
///
/// The caller owns the root slot (`node*& root`) and the search. To insert: descend to a
/// nullptr child slot, then call insert() (link + rebalance). To erase: erase().
template <class NodeTraits = rb_node_traits>
struct rb_algorithms {
  /// The NodeTraits.
  using traits = NodeTraits;
  /// The node type.
  using node = typename NodeTraits::node;

  /// Leftmost node of the tree rooted at `root`, nullptr if empty. @par Complexity O(log n)
  static node* first(node* root) noexcept {
    if (!root) return nullptr;
    while (node* l = traits::get_child(root, 0)) root = l;
    return root;
  }

  /// Rightmost node of the tree rooted at `root`, nullptr if empty. @par Complexity O(log n)
  static node* last(node* root) noexcept {
    if (!root) return nullptr;
    while (node* r = traits::get_child(root, 1)) root = r;
    return root;
  }

  /// In-order successor of linked node `n`, nullptr for the last. @par Complexity O(log n)
  /// worst, O(1) amortised over a full walk.
  static node* next(const node* n) noexcept { return step(n, 1); }

  /// In-order predecessor of linked node `n`, nullptr for the first. @copydetails next
  static node* prev(const node* n) noexcept { return step(n, 0); }

  /// Makes `n` a red leaf under `parent` in child slot `*link` (nullptr parent: `link` is the
  /// root slot). No rebalancing: call insert_fixup() next, or use insert().
  /// @pre `*link == nullptr`, and the position keeps the caller's order.
  static SCHEDCORE_ALWAYS_INLINE void link(node* n, node* parent, node** link) noexcept {
    traits::set_parent_color(n, parent, rb_color::red);
    traits::set_child(n, 0, nullptr);
    traits::set_child(n, 1, nullptr);
    *link = n;
  }

  /// Links `n` at `*link` under `parent` and restores the red-black properties, maintaining the
  /// augmentation of Callbacks. @par Complexity O(log n), at most two rotations.
  template <class Callbacks = rb_no_callbacks<NodeTraits>>
  static SCHEDCORE_ALWAYS_INLINE void insert(node* n, node* parent, node** link_slot, node*& root) noexcept {
    link(n, parent, link_slot);
    if constexpr (Callbacks::enabled) {
      if constexpr (detail::rb_has_leaf_propagate<Callbacks, node>) {
        Callbacks::leaf_propagate(n);
      } else {
        Callbacks::leaf(n);
        if (parent) Callbacks::propagate(parent, nullptr);
      }
    }
    // Under a black parent the red leaf breaks no rule (about half the inserts). With an
    // augment, insert_fixup (its rotations recompute) stays out of line, so that case is
    // tested here and costs no call (callgrind, EEVDF cycle: 10 instructions fewer). Without
    // one insert_fixup is inlined and the extra test only moves code (+1 to +3 measured).
    if constexpr (Callbacks::enabled) {
      if (parent && traits::is_black(parent)) return;
    }
    insert_fixup<Callbacks>(n, root);
  }

  /// Rebalances after `n` was linked as a red leaf (link()). Augmented values along the path
  /// must already include `n` (insert() does that).
  template <class Callbacks = rb_no_callbacks<NodeTraits>>
  static void insert_fixup(node* n, node*& root) noexcept {
    // Loop invariant: n is red; the only possible violation of the five rules is rule 4
    // between n and its parent, or rule 2 when n is the root.
    for (;;) {
      node* p = traits::get_parent(n);
      if (!p) {
        traits::set_black(n);  // n is the root: blackening it adds one black to every path
        return;
      }
      if (traits::is_black(p)) return;
      // p is red, so it is not the root: g exists and is black.
      node* g = traits::get_parent(p);
      const unsigned pdir = traits::get_child(g, 1) == p;
      node* u = traits::get_child(g, !pdir);
      if (u && traits::is_red(u)) {
        /*
         * Case 1: red uncle. Flip colours; the red moves two levels up.
         *
         *       G             g
         *      / \           / \
         *     p   u   -->   P   U
         *    /             /
         *   n             n
         */
        traits::set_black(p);
        traits::set_black(u);
        traits::set_red(g);
        n = g;
        continue;
      }
      if (traits::get_child(p, !pdir) == n) {
        /*
         * Case 2: n is the inner grandchild. Rotate at p so that the red pair lies on the
         * outer side, then finish with case 3 (n and p swap roles).
         *
         *      G             G
         *     / \           / \
         *    p   U  -->    n   U
         *     \           /
         *      n         p
         *     /           \
         *    T             T
         */
        node* t = traits::get_child(n, pdir);
        traits::set_child(p, !pdir, t);
        if (t) traits::set_parent_color(t, p, rb_color::black);  // child of a red node
        traits::set_child(n, pdir, p);
        traits::set_parent_color(p, n, rb_color::red);
        traits::set_child(g, pdir, n);  // n's parent link is written by case 3
        Callbacks::rotate(p, n);
        p = n;
      }
      /*
       * Case 3: n is the outer grandchild. Rotate at g towards the uncle; p takes g's place
       * and colour, g turns red.
       *
       *        G           P
       *       / \         / \
       *      p   U  -->  n   g
       *     / \             / \
       *    n   T           T   U
       */
      node* t = traits::get_child(p, !pdir);
      traits::set_child(g, pdir, t);
      if (t) traits::set_parent_color(t, g, rb_color::black);  // child of a red node
      traits::set_child(p, !pdir, g);
      rotate_set_parents(g, p, rb_color::red, root);
      Callbacks::rotate(g, p);
      return;
    }
  }

  /// Unlinks `n` from the tree rooted at `root` and restores the red-black properties and the
  /// augmentation. `n`'s own fields are left stale (the container resets them if it wants).
  /// @pre `n` is linked in this tree.
  /// @par Complexity O(log n), at most three rotations; no successor search unless `n` has
  /// two children.
  template <class Callbacks = rb_no_callbacks<NodeTraits>>
  static void erase(node* n, node*& root) noexcept {
    node* const l = traits::get_child(n, 0);
    node* const r = traits::get_child(n, 1);
    node* const p = traits::get_parent(n);
    node* fix_parent = nullptr;  // when non-null, a black was lost at fix_parent->child[fix_dir]
    unsigned fix_dir = 0;
    node* aug_from = p;  // lowest node whose subtree changed
    if (!l || !r) {
      // At most one child. If there is one, rule 5 forces it to be a red leaf under a black n:
      // it takes n's place and colour and nothing else changes.
      node* const c = l ? l : r;
      const unsigned ndir = p ? static_cast<unsigned>(traits::get_child(p, 1) == n) : 0u;
      if (p)
        traits::set_child(p, ndir, c);
      else
        root = c;
      if (c) {
        traits::copy_parent_color(c, n);
      } else if (p && traits::is_black(n)) {
        fix_parent = p;  // a black leaf left: that side is one black short
        fix_dir = ndir;
      }
    } else {
      /*
       * Two children: the successor s (leftmost of the right subtree, which has no left
       * child) takes n's place and colour; s's right child x takes s's old place.
       *
       *     N             S              N               S
       *    / \           / \            / \             / \
       *   L   S   -->   L   X    or    L   R    -->    L   R
       *        \                          /                /
       *         X                       ...              ...
       *                                 /                /
       *                                S                X
       *                                 \
       *                                  X
       */
      node* s = r;
      node* sp = r;  // the node whose child slot s leaves (s itself when s == r)
      unsigned sdir = 1;
      if (node* sl = traits::get_child(r, 0)) {
        do {
          sp = s;
          s = sl;
        } while ((sl = traits::get_child(s, 0)) != nullptr);
        sdir = 0;
      }
      node* const x = traits::get_child(s, 1);
      const bool s_black = traits::is_black(s);
      if (s != r) {
        traits::set_child(sp, 0, x);
        traits::set_child(s, 1, r);
        traits::set_parent(r, s);
      }
      traits::set_child(s, 0, l);
      traits::set_parent(l, s);
      traits::copy_parent_color(s, n);
      if (p)
        traits::set_child(p, static_cast<unsigned>(traits::get_child(p, 1) == n), s);
      else
        root = s;
      if (x) {
        traits::set_parent_color(x, sp, rb_color::black);  // red x replaces black s
      } else if (s_black) {
        fix_parent = sp;
        fix_dir = sdir;
      }
      if constexpr (Callbacks::enabled) {
        Callbacks::copy(n, s);
        if (sp != s) propagate_erased<Callbacks>(sp, s, s);  // the path that lost s
      }
      aug_from = s;  // s's subtree lost n
    }
    if constexpr (Callbacks::enabled) {
      if (aug_from) propagate_erased<Callbacks>(aug_from, nullptr, n);
    }
    if (fix_parent) erase_fixup<Callbacks>(fix_parent, fix_dir, root);
  }

  /// Unlinks the leftmost node `n` of the tree rooted at `root` (a scheduler's pop of the
  /// minimum) and returns its in-order successor, the fresh leftmost (nullptr if the tree
  /// became empty). Same result as erase(n, root) followed by a successor search, with less
  /// work: `n` has no left child and, unless it is the root, is its parent's *left* child, so
  /// neither the two-children case nor the "which side of the parent" test can occur.
  /// - right child r present: rule 5 forces r to be a red leaf under a black n; r takes n's
  ///   place and colour, and r is the successor. No rebalancing.
  /// - no child: the successor is the parent; a black n leaves its parent's left side one black
  ///   short (erase_fixup), a red n leaves nothing to repair.
  /// @pre `n` is the first node of the tree at `root`.
  /// @par Complexity O(1) without a black-leaf deficit, else O(log n) worst (O(1) amortised)
  /// recolourings and at most three rotations.
  template <class Callbacks = rb_no_callbacks<NodeTraits>>
  static SCHEDCORE_ALWAYS_INLINE node* erase_leftmost(node* n, node*& root) noexcept {
    node* const r = traits::get_child(n, 1);
    node* const p = traits::get_parent(n);
    if (r) {
      traits::copy_parent_color(r, n);  // red leaf r turns black in n's place
      if (p)
        traits::set_child(p, 0, r);
      else
        root = r;
      if constexpr (Callbacks::enabled) {
        if (p) propagate_erased<Callbacks>(p, nullptr, n);  // r's own value is unchanged (still a leaf)
      }
      return r;
    }
    if (SCHEDCORE_UNLIKELY(!p)) {
      root = nullptr;  // n was the only node
      return nullptr;
    }
    traits::set_child(p, 0, nullptr);
    if constexpr (Callbacks::enabled) propagate_erased<Callbacks>(p, nullptr, n);
    if (traits::is_black(n)) erase_fixup<Callbacks>(p, 0, root);
    return p;
  }

  /// Checks the red-black shape of the tree at `root`: parent back-links, root black, no red
  /// node with a red child, equal black height. Stores the node count in `count`.
  /// @return false at the first violation. @par Complexity O(n) time, O(log n) stack.
  static bool verify_shape(const node* root, usize& count) noexcept {
    count = 0;
    if (!root) return true;
    if (traits::get_parent(root) != nullptr || !traits::is_black(root)) return false;
    return black_height(root, 0, count) >= 0;
  }

 private:
  /// Augment upkeep after `gone` left the subtrees from `n` up to `stop`: the callbacks'
  /// propagate_erased() when declared, else propagate().
  template <class Callbacks>
  static SCHEDCORE_ALWAYS_INLINE void propagate_erased(node* n, node* stop, const node* gone) noexcept {
    if constexpr (detail::rb_has_propagate_erased<Callbacks, node>) {
      Callbacks::propagate_erased(n, stop, gone);
    } else {
      Callbacks::propagate(n, stop);
    }
  }

  /// In-order step in direction `dir` (1: successor, 0: predecessor).
  static node* step(const node* n, unsigned dir) noexcept {
    if (node* c = traits::get_child(n, dir)) {
      while (node* d = traits::get_child(c, !dir)) c = d;
      return c;
    }
    // Climb while n is the dir-side child; the first ancestor reached from its other side is it.
    node* p = traits::get_parent(n);
    while (p && traits::get_child(p, dir) == n) {
      n = p;
      p = traits::get_parent(p);
    }
    return p;
  }

  /// After a rotation at `old_top`: `new_top` takes old_top's parent and colour, old_top hangs
  /// under new_top with colour `c`, and the parent's child slot (or root) points to new_top.
  static SCHEDCORE_ALWAYS_INLINE void rotate_set_parents(node* old_top, node* new_top, rb_color c,
                                                          node*& root) noexcept {
    node* const gp = traits::get_parent(old_top);
    traits::copy_parent_color(new_top, old_top);
    traits::set_parent_color(old_top, new_top, c);
    if (gp)
      traits::set_child(gp, static_cast<unsigned>(traits::get_child(gp, 1) == old_top), new_top);
    else
      root = new_top;
  }

  /// Restores rule 5 after a black node left child slot `dir` of `parent`.
  template <class Callbacks>
  static void erase_fixup(node* parent, unsigned dir, node*& root) noexcept {
    // Loop invariant: the subtree n = parent->child[dir] (possibly nullptr) has a black root
    // and one black fewer on every path than parent's other subtree; everything else obeys
    // the five rules. Hence the sibling s = parent->child[!dir] exists.
    for (;;) {
      node* s = traits::get_child(parent, !dir);
      if (traits::is_red(s)) {
        /*
         * Case 1: red sibling. Rotate at parent towards n; s becomes the subtree's black top,
         * parent turns red, and n's current sibling (the old near nephew) is black.
         *
         *     P              S
         *    / \            / \
         *   N   s    -->   p   Sf
         *      / \        / \
         *     Sn  Sf     N   Sn
         */
        node* sn = traits::get_child(s, dir);
        traits::set_child(parent, !dir, sn);
        traits::set_parent_color(sn, parent, rb_color::black);
        traits::set_child(s, dir, parent);
        rotate_set_parents(parent, s, rb_color::red, root);
        Callbacks::rotate(parent, s);
        s = sn;
      }
      // s is black.
      node* far = traits::get_child(s, !dir);
      if (!far || traits::is_black(far)) {
        node* near = traits::get_child(s, dir);
        if (!near || traits::is_black(near)) {
          /*
           * Case 2: black sibling with black nephews. Paint s red: both sides of parent are
           * now short by one; a red parent absorbs it by turning black, otherwise the deficit
           * moves up one level.
           *
           *     (p)           (P)         P           P
           *     / \           / \        / \         / \
           *    N   S    -->  N   s   or N   S  -->  N   s   (and recurse at P)
           *       / \           / \        / \         / \
           *      Sn  Sf        Sn  Sf     Sn  Sf      Sn  Sf
           */
          traits::set_red(s);
          if (traits::is_red(parent)) {
            traits::set_black(parent);
            return;
          }
          node* gp = traits::get_parent(parent);
          if (!gp) return;  // parent is the root: every path lost one black alike
          dir = static_cast<unsigned>(traits::get_child(gp, 1) == parent);
          parent = gp;
          continue;
        }
        /*
         * Case 3: the near nephew is red, the far one black. Rotate at s away from n: near
         * becomes the sibling and s (black) its far child, setting up case 4.
         *
         *    (p)           (p)
         *    / \           / \
         *   N   S    -->  N   sn
         *      / \             \
         *     sn  Sf            S
         *       \              / \
         *        T            T   Sf
         */
        node* t = traits::get_child(near, !dir);
        traits::set_child(s, dir, t);
        if (t) traits::set_parent_color(t, s, rb_color::black);  // child of a red node
        traits::set_child(near, !dir, s);
        traits::set_parent_color(s, near, rb_color::black);
        traits::set_child(parent, !dir, near);
        Callbacks::rotate(s, near);
        far = s;
        s = near;  // its parent link and colour are written by case 4
      }
      /*
       * Case 4: black sibling with a red far nephew. Rotate at parent towards n: s takes
       * parent's place and colour, parent and far turn black: n's side gains a black, the far
       * side keeps its count.
       *
       *     (p)             (s)
       *     / \             / \
       *    N   S     -->   P   Sf
       *       / \         / \
       *     (sn) sf      N  (sn)
       */
      node* sn = traits::get_child(s, dir);
      traits::set_child(parent, !dir, sn);
      if (sn) traits::set_parent(sn, parent);
      traits::set_child(s, dir, parent);
      traits::set_parent_color(far, s, rb_color::black);
      rotate_set_parents(parent, s, rb_color::black, root);
      Callbacks::rotate(parent, s);
      return;
    }
  }

  /// Black height of the subtree at `n` (counting nullptr leaves as 0), or -1 on a violation.
  static int black_height(const node* n, unsigned depth, usize& count) noexcept {
    if (!n) return 0;
    if (depth > 2 * 8 * sizeof(void*)) return -1;  // deeper than any valid tree: a cycle
    ++count;
    const node* l = traits::get_child(n, 0);
    const node* r = traits::get_child(n, 1);
    if (l && traits::get_parent(l) != n) return -1;
    if (r && traits::get_parent(r) != n) return -1;
    if (traits::is_red(n) && ((l && traits::is_red(l)) || (r && traits::is_red(r)))) return -1;
    const int hl = black_height(l, depth + 1, count);
    const int hr = black_height(r, depth + 1, count);
    if (hl < 0 || hr < 0 || hl != hr) return -1;
    return hl + (traits::is_black(n) ? 1 : 0);
  }
};

}  // namespace schedcore

#endif
