// libFuzzer target: every schedcore container against a std model on an operation stream
// decoded from the input. Byte 0 selects the container; the rest is the op stream.
//
//   0 list        two safe-mode lists with size counters sharing one hook (elements move
//                 between them) and a third, counter-less list on a second (member) hook
//   1 prio_bitmap one-word and two-level forms, both urgency orders, sizes 1..4096
//   2 prio_array  140 and 5 priorities, both orders
//   3 stair_array 40 and 3 levels: enqueue/expired/requeue, quotas, minor and major rotations
//   4 rb_tree     plain and subtree_best (min of an aux key), keys across the 2^64 wrap
//
// After every op: verify() holds, the observable state equals the model, and a check fired
// exactly when the op was a misuse the container must refuse (then nothing changed: the full
// state comparison against the unchanged model proves it).
#include <algorithm>
#include <bitset>
#include <cstdint>
#include <deque>
#include <iterator>
#include <list>
#include <set>
#include <tuple>
#include <vector>

#include "fuzz_common.hpp"
#include "schedcore/bitmap/prio_bitmap.hpp"
#include "schedcore/intrusive/list.hpp"
#include "schedcore/intrusive/rb_tree.hpp"
#include "schedcore/queue/prio_array.hpp"
#include "schedcore/queue/stair_array.hpp"

namespace {

using namespace schedcore;
using fuzz::reader;

/// Runs `op`, then requires that exactly `misuse` checks (all of kind misuse) fired.
template <class Op>
void expect_checks(unsigned misuse, Op&& op) {
  fuzz::checks() = fuzz::check_log{};
  op();
  FUZZ_REQUIRE(fuzz::checks().count == misuse);
  FUZZ_REQUIRE(fuzz::checks().misuse == misuse);
}

// ------------------------------------------------------------------------------------------
// list
struct other_tag {};
struct litem : list_hook<> {
  unsigned id = 0;
  list_hook<other_tag> other;
};
using list_a = list<litem>;
using list_c = list<litem, list_member<&litem::other>, false>;

void fuzz_list(reader& in) {
  constexpr unsigned n = 12;
  std::vector<litem> items(n);
  for (unsigned i = 0; i < n; ++i) items[i].id = i;
  list_a lists[2];
  list_c lc;
  std::deque<unsigned> model[2];
  std::deque<unsigned> model_c;
  std::vector<int> where(n, -1);  // -1: unlinked, else the list index (hook 1)
  std::vector<bool> in_c(n, false);

  auto check = [&] {
    for (int l = 0; l < 2; ++l) {
      FUZZ_REQUIRE(lists[l].verify());
      FUZZ_REQUIRE(lists[l].size() == model[l].size());
      FUZZ_REQUIRE(lists[l].empty() == model[l].empty());
      std::size_t k = 0;
      for (const litem& it : lists[l]) {
        FUZZ_REQUIRE(k < model[l].size() && it.id == model[l][k]);
        ++k;
      }
      FUZZ_REQUIRE(k == model[l].size());
      if (!model[l].empty()) {
        FUZZ_REQUIRE(lists[l].front()->id == model[l].front());
        FUZZ_REQUIRE(lists[l].back()->id == model[l].back());
      }
    }
    FUZZ_REQUIRE(lc.verify());
    FUZZ_REQUIRE(lc.size() == model_c.size());
    std::size_t k = 0;
    for (const litem& it : lc) {
      FUZZ_REQUIRE(k < model_c.size() && it.id == model_c[k]);
      ++k;
    }
    FUZZ_REQUIRE(k == model_c.size());
    for (unsigned i = 0; i < n; ++i) {
      FUZZ_REQUIRE(items[i].is_linked() == (where[i] >= 0));
      FUZZ_REQUIRE(items[i].other.is_linked() == in_c[i]);
    }
  };
  auto erase_model = [&](unsigned id) {
    auto& m = model[where[id]];
    m.erase(std::find(m.begin(), m.end(), id));
    where[id] = -1;
  };

  while (!in.done()) {
    ++fuzz::op_index();
    const unsigned op = in.below(16);
    const unsigned id = in.below(n);
    const int l = static_cast<int>(in.u8() & 1u);
    litem& it = items[id];
    const bool linked = where[id] >= 0;
    switch (op) {
      case 0:  // push_back (misuse when linked)
        expect_checks(linked, [&] { lists[l].push_back(it); });
        if (!linked) { model[l].push_back(id); where[id] = l; }
        break;
      case 1:  // push_front
        expect_checks(linked, [&] { lists[l].push_front(it); });
        if (!linked) { model[l].push_front(id); where[id] = l; }
        break;
      case 2: {  // insert before the k-th element (or end)
        const std::size_t k = model[l].empty() ? 0 : in.below(static_cast<unsigned>(model[l].size() + 1));
        auto pos = lists[l].begin();
        for (std::size_t s = 0; s < k; ++s) ++pos;
        expect_checks(linked, [&] {
          auto r = lists[l].insert(pos, it);
          if (!linked) FUZZ_REQUIRE(&*r == &it);
        });
        if (!linked) { model[l].insert(model[l].begin() + static_cast<long>(k), id); where[id] = l; }
        break;
      }
      case 3:  // erase(v) (misuse when unlinked)
        if (linked) {
          const int from = where[id];
          expect_checks(0, [&] { lists[from].erase(it); });
          erase_model(id);
        } else {
          expect_checks(1, [&] { lists[l].erase(it); });
        }
        break;
      case 4: {  // pop_front / pop_back
        const bool front = in.flip();
        litem* got = nullptr;
        expect_checks(0, [&] { got = front ? lists[l].pop_front() : lists[l].pop_back(); });
        if (model[l].empty()) {
          FUZZ_REQUIRE(got == nullptr);
        } else {
          const unsigned want = front ? model[l].front() : model[l].back();
          FUZZ_REQUIRE(got == &items[want]);
          erase_model(want);
        }
        break;
      }
      case 5: {  // erase(iterator) of the k-th element; end() is a misuse
        const std::size_t k = in.below(static_cast<unsigned>(model[l].size() + 1));
        auto pos = lists[l].begin();
        for (std::size_t s = 0; s < k; ++s) ++pos;
        const bool at_end = k == model[l].size();
        expect_checks(at_end, [&] {
          auto r = lists[l].erase(list_a::const_iterator(pos));
          if (at_end) FUZZ_REQUIRE(r == lists[l].end());
        });
        if (!at_end) erase_model(model[l][k]);
        break;
      }
      case 6:  // clear
        expect_checks(0, [&] { lists[l].clear(); });
        for (unsigned x : model[l]) where[x] = -1;
        model[l].clear();
        break;
      case 7: {  // splice all of the other list before the k-th element
        const int o = 1 - l;
        const std::size_t k = in.below(static_cast<unsigned>(model[l].size() + 1));
        auto pos = lists[l].begin();
        for (std::size_t s = 0; s < k; ++s) ++pos;
        expect_checks(0, [&] { lists[l].splice(pos, lists[o]); });
        for (unsigned x : model[o]) where[x] = l;
        model[l].insert(model[l].begin() + static_cast<long>(k), model[o].begin(), model[o].end());
        model[o].clear();
        break;
      }
      case 8: {  // splice one element (from either list, possibly this one) before the k-th
        const std::size_t k = in.below(static_cast<unsigned>(model[l].size() + 1));
        auto pos = lists[l].begin();
        for (std::size_t s = 0; s < k; ++s) ++pos;
        if (!linked) {
          expect_checks(1, [&] { lists[l].splice(pos, lists[1 - l], it); });
          break;
        }
        const int from = where[id];
        // Model: the element before which `it` lands (k-th of the target, or end).
        const bool to_end = k == model[l].size();
        const unsigned anchor = to_end ? 0 : model[l][k];
        expect_checks(0, [&] { lists[l].splice(pos, lists[from], it); });
        if (!to_end && anchor == id) break;  // before itself: no-op
        erase_model(id);
        auto& m = model[l];
        auto at = to_end ? m.end() : std::find(m.begin(), m.end(), anchor);
        m.insert(at, id);
        where[id] = l;
        break;
      }
      case 9:  // swap
        expect_checks(0, [&] { lists[0].swap(lists[1]); });
        std::swap(model[0], model[1]);
        for (unsigned x : model[0]) where[x] = 0;
        for (unsigned x : model[1]) where[x] = 1;
        break;
      case 10:  // splice_back / splice_front of the other list
        if (in.flip()) {
          expect_checks(0, [&] { lists[l].splice_back(lists[1 - l]); });
          model[l].insert(model[l].end(), model[1 - l].begin(), model[1 - l].end());
        } else {
          expect_checks(0, [&] { lists[l].splice_front(lists[1 - l]); });
          model[l].insert(model[l].begin(), model[1 - l].begin(), model[1 - l].end());
        }
        for (unsigned x : model[1 - l]) where[x] = l;
        model[1 - l].clear();
        break;
      case 11:  // self-splice and self-swap are no-ops
        expect_checks(0, [&] {
          lists[l].splice(lists[l].end(), lists[l]);
          lists[l].swap(lists[l]);
        });
        break;
      case 12:  // list c (second hook, no size counter): push_back
        expect_checks(in_c[id], [&] { lc.push_back(it); });
        if (!in_c[id]) { model_c.push_back(id); in_c[id] = true; }
        break;
      case 13:  // list c: erase (misuse when unlinked)
        expect_checks(!in_c[id], [&] { lc.erase(it); });
        if (in_c[id]) { model_c.erase(std::find(model_c.begin(), model_c.end(), id)); in_c[id] = false; }
        break;
      case 14: {  // list c: pop_front / clear
        if (in.flip()) {
          litem* got = nullptr;
          expect_checks(0, [&] { got = lc.pop_front(); });
          FUZZ_REQUIRE(got == (model_c.empty() ? nullptr : &items[model_c.front()]));
          if (got) { in_c[model_c.front()] = false; model_c.pop_front(); }
        } else {
          expect_checks(0, [&] { lc.clear(); });
          for (unsigned x : model_c) in_c[x] = false;
          model_c.clear();
        }
        break;
      }
      default: {  // iterator_to and a backward walk
        if (!linked) break;
        auto i = lists[where[id]].iterator_to(it);
        FUZZ_REQUIRE(&*i == &it);
        break;
      }
    }
    check();
  }
}

// ------------------------------------------------------------------------------------------
// prio_bitmap
template <unsigned N, prio_order O>
void fuzz_bitmap_one(reader& in) {
  using bm_t = prio_bitmap<N, O>;
  bm_t bm;
  std::bitset<N> model;
  auto first = [&]() -> unsigned {
    if (model.none()) return bm_t::npos;
    if constexpr (O == prio_order::lower_first) {
      for (unsigned i = 0; i < N; ++i)
        if (model[i]) return i;
    } else {
      for (unsigned i = N; i-- > 0;)
        if (model[i]) return i;
    }
    return bm_t::npos;
  };
  auto next = [&](unsigned p) -> unsigned {
    if constexpr (O == prio_order::lower_first) {
      for (unsigned i = p + 1; i < N; ++i)
        if (model[i]) return i;
    } else {
      for (unsigned i = p; i-- > 0;)
        if (model[i]) return i;
    }
    return bm_t::npos;
  };
  auto check = [&] {
    FUZZ_REQUIRE(bm.verify());
    FUZZ_REQUIRE(bm.empty() == model.none());
    FUZZ_REQUIRE(bm.count() == model.count());
    if (!model.none()) FUZZ_REQUIRE(bm.find_first() == first());
  };
  while (!in.done()) {
    ++fuzz::op_index();
    const unsigned op = in.below(8);
    // Mostly in range; sometimes just past the end or far beyond (misuse).
    const unsigned sel = in.u8();
    unsigned p = in.u16() % N;
    if (sel >= 240) p = N + (sel & 3u);
    if (sel == 255) p = ~0u - 1;
    const bool bad = p >= N;
    switch (op) {
      case 0:
      case 1:
        expect_checks(bad, [&] { bm.set(p); });
        if (!bad) model.set(p);
        break;
      case 2:
        expect_checks(bad, [&] { bm.clear(p); });
        if (!bad) model.reset(p);
        break;
      case 3: {
        bool r = false;
        expect_checks(bad, [&] { r = bm.test(p); });
        FUZZ_REQUIRE(r == (!bad && model.test(p)));
        break;
      }
      case 4: {
        unsigned r = 0;
        expect_checks(bad, [&] { r = bm.find_next(p); });
        FUZZ_REQUIRE(r == (bad ? bm_t::npos : next(p)));
        break;
      }
      case 5: {  // find_first on an empty bitmap is a reported precondition violation
        unsigned r = 0;
        fuzz::checks() = fuzz::check_log{};
        r = bm.find_first();
        if (model.none()) {
          FUZZ_REQUIRE(fuzz::checks().count == 1 && fuzz::checks().last.kind == check_kind::assertion);
          FUZZ_REQUIRE(r == bm_t::npos);
        } else {
          FUZZ_REQUIRE(fuzz::checks().count == 0);
          FUZZ_REQUIRE(r == first());
        }
        break;
      }
      case 6: {  // full walk in urgency order
        unsigned seen = 0;
        expect_checks(0, [&] {
          for (unsigned q = bm.empty() ? bm_t::npos : bm.find_first(); q != bm_t::npos; q = bm.find_next(q)) {
            FUZZ_REQUIRE(q < N && model.test(q));
            ++seen;
          }
        });
        FUZZ_REQUIRE(seen == model.count());
        break;
      }
      default:
        if ((sel & 15u) == 0) {
          expect_checks(0, [&] { bm.reset(); });
          model.reset();
        }
        break;
    }
    check();
  }
}

void fuzz_bitmap(reader& in) {
  switch (in.below(12)) {
    case 0: fuzz_bitmap_one<1, prio_order::lower_first>(in); break;
    case 1: fuzz_bitmap_one<32, prio_order::lower_first>(in); break;
    case 2: fuzz_bitmap_one<33, prio_order::higher_first>(in); break;
    case 3: fuzz_bitmap_one<64, prio_order::lower_first>(in); break;
    case 4: fuzz_bitmap_one<64, prio_order::higher_first>(in); break;
    case 5: fuzz_bitmap_one<65, prio_order::lower_first>(in); break;
    case 6: fuzz_bitmap_one<140, prio_order::lower_first>(in); break;
    case 7: fuzz_bitmap_one<140, prio_order::higher_first>(in); break;
    case 8: fuzz_bitmap_one<4096, prio_order::lower_first>(in); break;
    case 9: fuzz_bitmap_one<4096, prio_order::higher_first>(in); break;
    case 10: fuzz_bitmap_one<4033, prio_order::higher_first>(in); break;
    default: fuzz_bitmap_one<7, prio_order::higher_first>(in); break;
  }
}

// ------------------------------------------------------------------------------------------
// prio_array
struct pitem : list_hook<> {
  unsigned id = 0;
};

template <unsigned N, prio_order O>
void fuzz_prio_array_one(reader& in) {
  constexpr unsigned n = 16;
  std::vector<pitem> items(n);
  for (unsigned i = 0; i < n; ++i) items[i].id = i;
  prio_array<pitem, N, O> pa;
  std::vector<std::deque<unsigned>> model(N);
  std::vector<int> prio_of(n, -1);
  std::size_t total = 0;

  auto best = [&]() -> unsigned {
    if (O == prio_order::lower_first) {
      for (unsigned p = 0; p < N; ++p)
        if (!model[p].empty()) return p;
    } else {
      for (unsigned p = N; p-- > 0;)
        if (!model[p].empty()) return p;
    }
    return pa.npos;
  };
  auto check = [&] {
    FUZZ_REQUIRE(pa.verify());
    FUZZ_REQUIRE(pa.nr_queued() == total);
    FUZZ_REQUIRE(pa.empty() == (total == 0));
    const unsigned b = best();
    FUZZ_REQUIRE(pa.best_prio() == b);
    FUZZ_REQUIRE(pa.pick() == (b == pa.npos ? nullptr : &items[model[b].front()]));
    for (unsigned p = 0; p < N; ++p) {
      std::size_t k = 0;
      for (pitem* t = pa.first_at(p); t != nullptr; t = pa.next_at_same_prio(*t)) {
        FUZZ_REQUIRE(k < model[p].size() && t->id == model[p][k]);
        ++k;
      }
      FUZZ_REQUIRE(k == model[p].size());
      FUZZ_REQUIRE(pa.bitmap().test(p) == !model[p].empty());
    }
  };
  auto remove = [&](unsigned id) {
    auto& m = model[static_cast<unsigned>(prio_of[id])];
    m.erase(std::find(m.begin(), m.end(), id));
    prio_of[id] = -1;
    --total;
  };

  while (!in.done()) {
    ++fuzz::op_index();
    const unsigned op = in.below(7);
    const unsigned id = in.below(n);
    const unsigned sel = in.u8();
    unsigned p = in.u8() % N;
    if (sel >= 248) p = N + (sel & 7u);
    const bool bad_p = p >= N;
    const bool linked = prio_of[id] >= 0;
    pitem& t = items[id];
    switch (op) {
      case 0:
      case 1: {  // enqueue tail / head
        const bool misuse = bad_p || linked;
        expect_checks(misuse ? 1u : 0u, [&] {
          if (op == 0) pa.enqueue(t, p); else pa.enqueue_head(t, p);
        });
        if (!misuse) {
          if (op == 0) model[p].push_back(id); else model[p].push_front(id);
          prio_of[id] = static_cast<int>(p);
          ++total;
        }
        break;
      }
      case 2:  // dequeue
        expect_checks(linked ? 0u : 1u, [&] { pa.dequeue(t); });
        if (linked) remove(id);
        break;
      case 3: {  // requeue_tail (round robin or priority change)
        const bool misuse = bad_p || !linked;
        expect_checks(misuse ? 1u : 0u, [&] { pa.requeue_tail(t, p); });
        if (!misuse) {
          remove(id);
          model[p].push_back(id);
          prio_of[id] = static_cast<int>(p);
          ++total;
        }
        break;
      }
      case 4: {  // pop
        pitem* got = nullptr;
        const unsigned b = best();
        expect_checks(0, [&] { got = pa.pop(); });
        if (b == pa.npos) {
          FUZZ_REQUIRE(got == nullptr);
        } else {
          FUZZ_REQUIRE(got == &items[model[b].front()]);
          remove(model[b].front());
        }
        break;
      }
      case 5: {  // first_at out of range is a misuse answering nullptr
        pitem* got = nullptr;
        expect_checks(bad_p, [&] { got = pa.first_at(p); });
        if (bad_p) FUZZ_REQUIRE(got == nullptr);
        else FUZZ_REQUIRE(got == (model[p].empty() ? nullptr : &items[model[p].front()]));
        break;
      }
      default:  // read-only: the state check below
        break;
    }
    check();
  }
}

void fuzz_prio_array(reader& in) {
  switch (in.below(4)) {
    case 0: fuzz_prio_array_one<140, prio_order::lower_first>(in); break;
    case 1: fuzz_prio_array_one<140, prio_order::higher_first>(in); break;
    case 2: fuzz_prio_array_one<5, prio_order::lower_first>(in); break;
    default: fuzz_prio_array_one<100, prio_order::higher_first>(in); break;
  }
}

// ------------------------------------------------------------------------------------------
// stair_array
template <unsigned L>
void fuzz_stair_one(reader& in) {
  constexpr unsigned n = 16;
  std::vector<pitem> items(n);
  for (unsigned i = 0; i < n; ++i) items[i].id = i;
  stair_array<pitem, L> sa;
  struct model_t {
    std::vector<std::deque<unsigned>> act = std::vector<std::deque<unsigned>>(L);
    std::vector<std::deque<unsigned>> exp = std::vector<std::deque<unsigned>>(L);
    unsigned cur = 0;
    std::uint64_t epoch = 0;
    std::vector<duration_ns> quota = std::vector<duration_ns>(L, 0);
    std::vector<duration_ns> refill = std::vector<duration_ns>(L, 0);
  } m;
  std::vector<bool> queued(n, false);
  std::size_t total = 0;

  auto find_remove = [&](unsigned id) {
    for (auto* side : {&m.act, &m.exp})
      for (auto& dq : *side) {
        auto it = std::find(dq.begin(), dq.end(), id);
        if (it != dq.end()) {
          dq.erase(it);
          return;
        }
      }
    FUZZ_REQUIRE(false && "model lost an element");
  };
  auto best_of = [&](const std::vector<std::deque<unsigned>>& side) -> unsigned {
    for (unsigned l = 0; l < L; ++l)
      if (!side[l].empty()) return l;
    return sa.npos;
  };
  auto major = [&] {
    for (unsigned l = 0; l < L; ++l) {
      m.exp[l].insert(m.exp[l].begin(), m.act[l].begin(), m.act[l].end());
      m.act[l].clear();
    }
    std::swap(m.act, m.exp);
    ++m.epoch;
    m.cur = 0;
    m.quota = m.refill;
  };
  auto close_through = [&](unsigned level) -> stair_rotation {
    if (level >= L - 1) {
      major();
      return stair_rotation::major;
    }
    std::deque<unsigned> moved;
    for (unsigned l = m.cur; l <= level; ++l) {
      moved.insert(moved.end(), m.act[l].begin(), m.act[l].end());
      m.act[l].clear();
    }
    m.act[level + 1].insert(m.act[level + 1].begin(), moved.begin(), moved.end());
    if (m.quota[level] < 0) m.quota[level + 1] += m.quota[level];
    m.cur = level + 1;
    return stair_rotation::minor;
  };
  auto check = [&] {
    FUZZ_REQUIRE(sa.verify());
    FUZZ_REQUIRE(sa.nr_queued() == total);
    FUZZ_REQUIRE(sa.empty() == (total == 0));
    FUZZ_REQUIRE(sa.current_level() == m.cur);
    FUZZ_REQUIRE(sa.rotation_epoch() == m.epoch);
    FUZZ_REQUIRE(sa.best_level() == best_of(m.act));
    FUZZ_REQUIRE(sa.best_expired_level() == best_of(m.exp));
    FUZZ_REQUIRE(sa.active_empty() == (best_of(m.act) == sa.npos));
    FUZZ_REQUIRE(sa.expired_empty() == (best_of(m.exp) == sa.npos));
    const unsigned b = best_of(m.act);
    FUZZ_REQUIRE(sa.pick() == (b == sa.npos ? nullptr : &items[m.act[b].front()]));
    for (unsigned l = 0; l < L; ++l) {
      FUZZ_REQUIRE(sa.level_quota(l) == m.quota[l]);
      std::size_t k = 0;
      for (pitem* t = sa.first_active_at(l); t != nullptr; t = sa.next_at_same_level(*t)) {
        FUZZ_REQUIRE(k < m.act[l].size() && t->id == m.act[l][k]);
        ++k;
      }
      FUZZ_REQUIRE(k == m.act[l].size());
      k = 0;
      for (pitem* t = sa.first_expired_at(l); t != nullptr; t = sa.next_at_same_level(*t)) {
        FUZZ_REQUIRE(k < m.exp[l].size() && t->id == m.exp[l][k]);
        ++k;
      }
      FUZZ_REQUIRE(k == m.exp[l].size());
    }
  };

  while (!in.done()) {
    ++fuzz::op_index();
    const unsigned op = in.below(13);
    const unsigned id = in.below(n);
    const unsigned sel = in.u8();
    unsigned lv = in.u8() % L;
    if (sel >= 248) lv = L + (sel & 7u);
    const bool bad = lv >= L;
    const bool linked = queued[id];
    pitem& t = items[id];
    // Quotas and charges stay far from s64 overflow: |ns| < 2^40 per op.
    const duration_ns ns = static_cast<duration_ns>(in.u32()) * ((sel & 1u) ? 256 : 1);
    switch (op) {
      case 0:
      case 1: {  // enqueue tail / head (clamped to the current level)
        const bool misuse = bad || linked;
        unsigned got = 0;
        expect_checks(misuse ? 1u : 0u, [&] { got = op == 0 ? sa.enqueue(t, lv) : sa.enqueue_head(t, lv); });
        if (misuse) {
          FUZZ_REQUIRE(got == sa.npos);
        } else {
          const unsigned at = std::max(lv, m.cur);
          FUZZ_REQUIRE(got == at);
          if (op == 0) m.act[at].push_back(id); else m.act[at].push_front(id);
          queued[id] = true;
          ++total;
        }
        break;
      }
      case 2: {  // enqueue_expired
        const bool misuse = bad || linked;
        expect_checks(misuse ? 1u : 0u, [&] { sa.enqueue_expired(t, lv); });
        if (!misuse) {
          m.exp[lv].push_back(id);
          queued[id] = true;
          ++total;
        }
        break;
      }
      case 3:  // dequeue
        expect_checks(linked ? 0u : 1u, [&] { sa.dequeue(t); });
        if (linked) {
          find_remove(id);
          queued[id] = false;
          --total;
        }
        break;
      case 4: {  // requeue_tail (from either array into active)
        const bool misuse = bad || !linked;
        unsigned got = 0;
        expect_checks(misuse ? 1u : 0u, [&] { got = sa.requeue_tail(t, lv); });
        if (misuse) {
          FUZZ_REQUIRE(got == sa.npos);
        } else {
          find_remove(id);
          const unsigned at = std::max(lv, m.cur);
          FUZZ_REQUIRE(got == at);
          m.act[at].push_back(id);
        }
        break;
      }
      case 5: {  // pop
        pitem* got = nullptr;
        const unsigned b = best_of(m.act);
        expect_checks(0, [&] { got = sa.pop(); });
        if (b == sa.npos) {
          FUZZ_REQUIRE(got == nullptr);
        } else {
          FUZZ_REQUIRE(got == &items[m.act[b].front()]);
          queued[m.act[b].front()] = false;
          m.act[b].pop_front();
          --total;
        }
        break;
      }
      case 6: {  // charge
        stair_rotation r = stair_rotation::none;
        expect_checks(bad, [&] { r = sa.charge(lv, ns); });
        if (bad) {
          FUZZ_REQUIRE(r == stair_rotation::none);
          break;
        }
        const unsigned at = std::max(lv, m.cur);
        m.quota[at] -= ns;
        const stair_rotation want = m.quota[at] > 0 ? stair_rotation::none : close_through(at);
        FUZZ_REQUIRE(r == want);
        break;
      }
      case 7: {  // minor rotation of the current level
        stair_rotation r = stair_rotation::none;
        expect_checks(0, [&] { r = sa.minor_rotation(); });
        FUZZ_REQUIRE(r == close_through(m.cur));
        break;
      }
      case 8:  // major rotation
        expect_checks(0, [&] { sa.major_rotation(); });
        major();
        break;
      case 9:  // set_level_quota
        expect_checks(bad, [&] { sa.set_level_quota(lv, ns); });
        if (!bad) m.quota[lv] = m.refill[lv] = ns;
        break;
      case 10:  // add_level_quota (may be negative)
        expect_checks(bad, [&] { sa.add_level_quota(lv, (sel & 2u) ? -ns : ns); });
        if (!bad) m.quota[lv] += (sel & 2u) ? -ns : ns;
        break;
      case 11:  // set_all_level_quotas
        expect_checks(0, [&] { sa.set_all_level_quotas(ns); });
        std::fill(m.quota.begin(), m.quota.end(), ns);
        std::fill(m.refill.begin(), m.refill.end(), ns);
        break;
      default: {  // out-of-range reads are refused
        if (!bad) break;
        duration_ns q = 1;
        expect_checks(1, [&] { q = sa.level_quota(lv); });
        FUZZ_REQUIRE(q == 0);
        pitem* p = &t;
        expect_checks(1, [&] { p = sa.first_active_at(lv); });
        FUZZ_REQUIRE(p == nullptr);
        break;
      }
    }
    check();
  }
}

void fuzz_stair(reader& in) {
  switch (in.below(3)) {
    case 0: fuzz_stair_one<40>(in); break;
    case 1: fuzz_stair_one<3>(in); break;
    default: fuzz_stair_one<2>(in); break;
  }
}

// ------------------------------------------------------------------------------------------
// rb_tree
struct ritem {
  unsigned id = 0;
  vtime key{};
  vtime aux{};
  vtime best{};
  rb_hook<link_mode::safe> hook;
};
struct min_aux {
  using value_type = ritem;
  using best_type = vtime;
  static vtime value(const ritem& t) noexcept { return t.aux; }
  static vtime best(const ritem& t) noexcept { return t.best; }
  static void set_best(ritem& t, vtime b) noexcept { t.best = b; }
  static bool better(vtime a, vtime b) noexcept { return a < b; }
};

template <class Augment>
void fuzz_rb_one(reader& in) {
  using tree_t = rb_tree<ritem, rb_member<&ritem::hook>, rb_member_less<&ritem::key>, Augment>;
  constexpr bool augmented = !std::is_same_v<Augment, no_augment>;
  constexpr unsigned n = 48;
  // Keys are key_base + offset, offsets < 2^40: every tree straddles the 2^64 wrap.
  const std::uint64_t key_base = ~0ull - (1ull << 20) - in.u32();
  const unsigned spread = in.below(4);  // 0: many ties ... 3: wide keys
  std::vector<ritem> items(n);
  for (unsigned i = 0; i < n; ++i) items[i].id = i;
  tree_t tree;
  using entry = std::tuple<std::uint64_t, std::uint64_t, unsigned>;  // (offset, seq, id)
  std::set<entry> model;
  std::vector<std::set<entry>::iterator> where(n, model.end());
  std::vector<bool> linked(n, false);
  std::uint64_t seq = 0;

  auto front = [&]() -> ritem* { return model.empty() ? nullptr : &items[std::get<2>(*model.begin())]; };
  auto model_erase = [&](unsigned id) {
    model.erase(where[id]);
    where[id] = model.end();
    linked[id] = false;
  };
  auto check = [&] {
    FUZZ_REQUIRE(tree.verify());
    FUZZ_REQUIRE(tree.size() == model.size());
    FUZZ_REQUIRE(tree.empty() == model.empty());
    FUZZ_REQUIRE(tree.front() == front());
    FUZZ_REQUIRE(tree.back() == (model.empty() ? nullptr : &items[std::get<2>(*model.rbegin())]));
    auto it = model.begin();
    for (ritem& r : tree) {
      FUZZ_REQUIRE(it != model.end() && r.id == std::get<2>(*it));
      ++it;
    }
    FUZZ_REQUIRE(it == model.end());
    for (unsigned i = 0; i < n; ++i) FUZZ_REQUIRE(items[i].hook.is_linked() == linked[i]);
  };

  while (!in.done()) {
    ++fuzz::op_index();
    const unsigned op = in.below(9);
    const unsigned id = in.below(n);
    ritem& t = items[id];
    switch (op) {
      case 0:
      case 1:
      case 2: {  // insert (misuse when linked: nothing changes, not even the key)
        std::uint64_t off = 0;
        switch (spread) {
          case 0: off = in.below(4); break;
          case 1: off = in.u8(); break;
          case 2: off = in.u32(); break;
          default: off = in.u64() & ((1ull << 40) - 1); break;
        }
        const std::uint64_t aux_off = in.u16();
        if (linked[id]) {
          bool r = true;
          expect_checks(1, [&] { r = tree.insert(t); });
          FUZZ_REQUIRE(!r);
          break;
        }
        t.key = vtime{key_base + off};
        t.aux = vtime{key_base + aux_off};
        bool r = false;
        where[id] = model.insert(entry{off, seq++, id}).first;
        linked[id] = true;
        expect_checks(0, [&] { r = tree.insert(t); });
        FUZZ_REQUIRE(r == (front() == &t));
        break;
      }
      case 3:
      case 4: {  // erase (misuse when unlinked: returns the unchanged front)
        ritem* f = nullptr;
        if (!linked[id]) {
          expect_checks(1, [&] { f = tree.erase(t); });
          FUZZ_REQUIRE(f == front());
          break;
        }
        model_erase(id);
        expect_checks(0, [&] { f = tree.erase(t); });
        FUZZ_REQUIRE(f == front());
        break;
      }
      case 5: {  // pop_front
        ritem* want = front();
        ritem* got = nullptr;
        expect_checks(0, [&] { got = tree.pop_front(); });
        FUZZ_REQUIRE(got == want);
        if (want) model_erase(want->id);
        break;
      }
      case 6: {  // next/prev walk from a linked element
        if (!linked[id]) break;
        auto it = where[id];
        auto nx = std::next(it);
        FUZZ_REQUIRE(tree.next(t) == (nx == model.end() ? nullptr : &items[std::get<2>(*nx)]));
        FUZZ_REQUIRE(tree.prev(t) == (it == model.begin() ? nullptr : &items[std::get<2>(*std::prev(it))]));
        break;
      }
      case 7: {  // augmented pruned search vs brute force
        if constexpr (augmented) {
          const vtime bound{key_base + in.u16()};
          ritem* want = nullptr;
          for (const entry& e : model) {
            ritem& r = items[std::get<2>(e)];
            if (r.aux <= bound) {
              want = &r;
              break;
            }
          }
          ritem* got = tree.find_first_by_best([bound](vtime v) noexcept { return v <= bound; });
          FUZZ_REQUIRE(got == want);
          if (ritem* root = tree.root()) {
            vtime mn = root->aux;
            for (const entry& e : model) mn = earlier_of(mn, items[std::get<2>(e)].aux);
            FUZZ_REQUIRE(root->best == mn);
          }
        }
        break;
      }
      default:  // clear (rarely)
        if ((in.u8() & 15u) == 0) {
          expect_checks(0, [&] { tree.clear(); });
          model.clear();
          std::fill(where.begin(), where.end(), model.end());
          std::fill(linked.begin(), linked.end(), false);
        }
        break;
    }
    check();
  }
}

void fuzz_rb(reader& in) {
  if (in.flip()) fuzz_rb_one<subtree_best<min_aux>>(in);
  else fuzz_rb_one<no_augment>(in);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  reader in(data, size);
  fuzz::op_index() = 0;
  fuzz::checks() = fuzz::check_log{};
  switch (in.below(5)) {
    case 0: fuzz_list(in); break;
    case 1: fuzz_bitmap(in); break;
    case 2: fuzz_prio_array(in); break;
    case 3: fuzz_stair(in); break;
    default: fuzz_rb(in); break;
  }
  return 0;
}
