/// @file
/// @brief Tree augmentation: `no_augment` (zero cost), `subtree_best<Traits>` ("best value in
/// each subtree", the fbl `WAVLTreeBestNodeObserver` pattern, Linux's min_vruntime callbacks),
/// and the pruned descent that uses it (EEVDF's pick, EDF's earliest deadline).
///
/// @par Implementation notes
/// An *Augment* is the rb_tree template argument. It exposes
/// `template <class NodeTraits, class NodeToValue> struct callbacks`, the node-level callbacks
/// of rb_algorithms (`enabled`, `propagate`, `copy`, `rotate`, `leaf`) plus
/// `verify(const node*)` for rb_tree::verify(). `NodeToValue` is supplied by the tree: it has
/// `value_type` and `static value_type& value(node*)` / `static const value_type&
/// value(const node*)`.
///
/// `subtree_best<Traits>` stores in every node the best of the node's own value and its
/// children's stored bests, so `best(root)` is the best value of the whole tree and each
/// subtree answers "does anything in here beat X?" in O(1). Maintenance costs, per insert, a
/// walk up from the fresh leaf that stops at the first ancestor whose best the leaf's value
/// does not beat (one comparison per level: leaf_propagate), plus O(1) per rotation; per
/// erase, a walk from the removal point that recomputes each ancestor and stops at the first
/// unchanged one (and the same from the successor's old parent when the erased node had two
/// children).
///
/// The pruned descent rb_find_first_pruned() finds, in key order, the first node matching a
/// predicate, visiting only subtrees whose summary may contain a match. When the summary test
/// is *exact* (true iff a match lies in the subtree, which holds for any predicate monotone in
/// the best value: "min vruntime <= V" is true iff some vruntime <= V) the descent never
/// backtracks and costs O(log n). EEVDF's partition, tree keyed by virtual deadline:
///
/// @code{.unparsed}
///                   [d=40 v=9]            v = vruntime, d = virtual deadline (the key)
///                  /          \           min_v = subtree min vruntime (the augment)
///        [d=20 v=12]           [d=60 v=3]       eligible: v <= V, say V = 8
///        min_v=5               min_v=3
///        /        \             (root: min_v=3)
///  [d=10 v=15]  [d=30 v=5]
///   min_v=15     min_v=5
///
///  at d=40: left min_v=5 <= 8, go left  -> at d=20: left min_v=15 > 8: prune;
///  own v=12 > 8: skip; right min_v=5 <= 8: go right -> d=30, v=5: first eligible in
///  deadline order.
/// @endcode
///
/// Deliberately omitted: a general "sum" augment (no scheduler structure here needs one;
/// Linux's avg_vruntime is kept outside the tree) and backtracking for inexact summaries.
#ifndef SCHEDCORE_INTRUSIVE_RB_AUGMENT_HPP
#define SCHEDCORE_INTRUSIVE_RB_AUGMENT_HPP

#include "schedcore/core/config.hpp"
#include "schedcore/core/types.hpp"
#include "schedcore/intrusive/rb_algorithms.hpp"
#include "schedcore/intrusive/rb_hook.hpp"

namespace schedcore {

/// No augmentation: the tree compiles to a plain cached red-black tree.
struct no_augment {
  /// Node-level callbacks (all empty).
  template <class NodeTraits, class NodeToValue>
  struct callbacks : rb_no_callbacks<NodeTraits> {
    /// Nothing to check.
    static constexpr bool verify(const typename NodeTraits::node*) noexcept { return true; }
  };
};

/// Keeps the best value of every subtree in its root: min vruntime (EEVDF), min deadline (EDF).
///
/// `Traits` (documented like fbl's observer traits) must provide:
/// - `using value_type` — the tree's element type;
/// - `using best_type` — a cheap copyable value with `==`, e.g. vtime or u64;
/// - `static best_type value(const value_type&)` — the element's own contribution;
/// - `static best_type best(const value_type&)` — the stored subtree best;
/// - `static void set_best(value_type&, best_type)` — stores it (a field in the element);
/// - `static bool better(best_type a, best_type b)` — a strictly better than b (`a < b` for a
///   minimum; use wrap-safe comparisons for time).
/// All noexcept.
template <class Traits>
struct subtree_best {
  /// The user traits.
  using traits = Traits;
  /// The summary type.
  using best_type = typename Traits::best_type;

  /// Node-level callbacks for rb_algorithms, bound to the tree's node-to-value mapping.
  template <class NodeTraits, class NodeToValue>
  struct callbacks {
    /// The node type.
    using node = typename NodeTraits::node;
    /// Augmentation is on.
    static constexpr bool enabled = true;

    /// Best of `n`'s own value and its children's stored bests (read-only; verify()).
    static SCHEDCORE_ALWAYS_INLINE best_type compute(const node* n) noexcept {
      best_type b = Traits::value(NodeToValue::value(n));
      if (const node* l = NodeTraits::get_child(n, 0)) {
        const best_type lb = Traits::best(NodeToValue::value(l));
        if (Traits::better(lb, b)) b = lb;
      }
      if (const node* r = NodeTraits::get_child(n, 1)) {
        const best_type rb = Traits::best(NodeToValue::value(r));
        if (Traits::better(rb, b)) b = rb;
      }
      return b;
    }

    /// `n`'s child in slot `dir`, or `n` itself when the slot is empty, selected with a mask
    /// rather than a branch (whether a node near the leaves has a given child is close to a
    /// coin flip, and a mispredict costs more than the four ALU operations).
    static SCHEDCORE_ALWAYS_INLINE node* child_or_self(node* n, unsigned dir) noexcept {
      node* c = NodeTraits::get_child(n, dir);
#if defined(__x86_64__) && defined(__LP64__) && !defined(SCHEDCORE_RB_PORTABLE_SELECT)  // not x32: its pointers are 32-bit
      // GCC turns the portable form below back into a branch when it can see the later use;
      // a test + cmov pins the select (2 instructions instead of 4).
      __asm__("testq %[c], %[c]\n\tcmovzq %[n], %[c]" : [c] "+r"(c) : [n] "r"(n) : "cc");
      return c;
#else
      const uptr cu = reinterpret_cast<uptr>(c);
      const uptr self_mask = static_cast<uptr>(0) - static_cast<uptr>(cu == 0);  // all ones iff no child
      return reinterpret_cast<node*>(cu | (reinterpret_cast<uptr>(n) & self_mask));
#endif
    }

    /// compute() for the update paths, without a data-dependent branch: `n`'s stored best is
    /// first overwritten with its own value, so that a missing child, read as `n` itself
    /// (child_or_self), contributes exactly that. The caller stores the result (`n`'s best
    /// holds its own value in between). `Traits::better` selects compile to conditional moves.
    static SCHEDCORE_ALWAYS_INLINE best_type compute_update(node* n) noexcept {
      auto& self = NodeToValue::value(n);
      const best_type own = Traits::value(self);
      node* const l = child_or_self(n, 0);
      node* const r = child_or_self(n, 1);
      Traits::set_best(self, own);
      const best_type lb = Traits::best(NodeToValue::value(l));
      const best_type rb = Traits::best(NodeToValue::value(r));
      best_type b = Traits::better(lb, own) ? lb : own;
      b = Traits::better(rb, b) ? rb : b;
      return b;
    }

    /// Recomputes `n` and its ancestors up to (not including) `stop`, stopping at the first
    /// node whose stored best does not change (its ancestors cannot change either).
    /// @par Complexity O(depth of n − depth of stop); one iteration per changed node plus one.
    static void propagate(node* n, node* stop) noexcept {
      while (n != stop) {
        auto& v = NodeToValue::value(n);
        const best_type old = Traits::best(v);
        const best_type b = compute_update(n);
        Traits::set_best(v, b);
        if (old == b) return;
        n = NodeTraits::get_parent(n);
      }
    }
    /// propagate(n, stop) after an erase, when the only change below n is that `gone` left
    /// the subtrees on the way: an ancestor whose stored best differs from gone's value got it
    /// from a node that is still there, so it and everything above are unchanged, and the walk
    /// stops with one comparison instead of a compute_update(). Otherwise as propagate().
    /// @par Complexity O(depth of n − depth of stop); recomputes only nodes whose best was
    /// gone's value.
    static void propagate_erased(node* n, node* stop, const node* gone) noexcept {
      const best_type x = Traits::value(NodeToValue::value(gone));
      while (n != stop) {
        auto& v = NodeToValue::value(n);
        const best_type old = Traits::best(v);
        if (!(old == x)) return;
        const best_type b = compute_update(n);
        Traits::set_best(v, b);
        if (old == b) return;
        n = NodeTraits::get_parent(n);
      }
    }
    /// `to` replaced `from` in the tree: it takes the same subtree, hence the same best.
    static SCHEDCORE_ALWAYS_INLINE void copy(const node* from, node* to) noexcept {
      Traits::set_best(NodeToValue::value(to), Traits::best(NodeToValue::value(from)));
    }
    /// After a rotation: the fresh top covers exactly the old top's node set; the old top lost
    /// part of its subtree and is recomputed.
    static SCHEDCORE_ALWAYS_INLINE void rotate(node* old_top, node* new_top) noexcept {
      Traits::set_best(NodeToValue::value(new_top), Traits::best(NodeToValue::value(old_top)));
      const best_type b = compute_update(old_top);
      Traits::set_best(NodeToValue::value(old_top), b);
    }
    /// A fresh leaf's subtree is itself.
    static SCHEDCORE_ALWAYS_INLINE void leaf(node* n) noexcept {
      auto& v = NodeToValue::value(n);
      Traits::set_best(v, Traits::value(v));
    }
    /// A fresh leaf `n` was linked: its best is its own value, and each ancestor's best becomes
    /// the better of its stored best and that value (the subtree gained exactly one value, so
    /// nothing needs recomputing). Stops at the first ancestor the value does not beat: that
    /// ancestor is unchanged, so are all above it. Same stored values as leaf() followed by
    /// propagate(parent, nullptr), for one load, compare and branch per level instead of a
    /// compute_update() (both children's bests), and no recomputation at the stopping level.
    /// @par Complexity O(number of ancestors the value beats + 1).
    static SCHEDCORE_ALWAYS_INLINE void leaf_propagate(node* n) noexcept {
      auto& v = NodeToValue::value(n);
      const best_type own = Traits::value(v);
      Traits::set_best(v, own);
      for (node* p = NodeTraits::get_parent(n); p != nullptr; p = NodeTraits::get_parent(p)) {
        auto& pv = NodeToValue::value(p);
        if (!Traits::better(own, Traits::best(pv))) return;
        Traits::set_best(pv, own);
      }
    }
    /// True when `n`'s stored best equals the value recomputed from its children.
    static bool verify(const node* n) noexcept { return compute(n) == Traits::best(NodeToValue::value(n)); }

    /// True when something in `n`'s subtree may satisfy `pred` (exact for monotone `pred`).
    template <class Pred>
    static SCHEDCORE_ALWAYS_INLINE bool subtree_matches(const node* n, Pred& pred) noexcept {
      return pred(Traits::best(NodeToValue::value(n)));
    }
    /// True when `n`'s own value satisfies `pred`.
    template <class Pred>
    static SCHEDCORE_ALWAYS_INLINE bool node_matches(const node* n, Pred& pred) noexcept {
      return pred(Traits::value(NodeToValue::value(n)));
    }
  };
};

/// First node in key (in-order) order for which `matches(node)` holds, descending from `root`
/// and entering only subtrees for which `may_contain(subtree_root)` holds; nullptr if none.
///
/// @pre `may_contain(x)` is true whenever some node of x's subtree matches (otherwise matches
/// are missed), and false when none does (otherwise the descent may give up early and return
/// nullptr): with subtree_best this holds for any predicate `P` monotone in the best value,
/// `may_contain(x) = P(best(x))`, `matches(x) = P(value(x))`.
/// @par Complexity O(log n): one root-to-node path, no backtracking.
template <class NodeTraits, class MayContain, class Matches>
typename NodeTraits::node* rb_find_first_pruned(typename NodeTraits::node* root, MayContain&& may_contain,
                                                Matches&& matches) noexcept {
  using node = typename NodeTraits::node;
  if (!root || !may_contain(static_cast<const node*>(root))) return nullptr;
  node* n = root;
  // Loop invariant: the first match of the whole tree lies in n's subtree (may_contain(n)).
  // Everything left of n's subtree has been ruled out.
  for (;;) {
    node* l = NodeTraits::get_child(n, 0);
    if (l && may_contain(static_cast<const node*>(l))) {
      n = l;  // a match on the left precedes n and everything on its right
      continue;
    }
    if (matches(static_cast<const node*>(n))) return n;
    node* r = NodeTraits::get_child(n, 1);
    if (!r || !may_contain(static_cast<const node*>(r))) return nullptr;  // only if inexact
    n = r;
  }
}

}  // namespace schedcore

#endif
