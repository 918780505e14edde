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
#include "schedcore/bitmap/prio_bitmap.hpp"
#include "schedcore/intrusive/list.hpp"
#include "schedcore/intrusive/list_hook.hpp"
#include "schedcore/queue/prio_array.hpp"
#include "schedcore/queue/stair_array.hpp"

// intrusive tree
#include "schedcore/intrusive/rb_algorithms.hpp"
#include "schedcore/intrusive/rb_augment.hpp"
#include "schedcore/intrusive/rb_hook.hpp"
#include "schedcore/intrusive/rb_tree.hpp"

// policies
#include "schedcore/policy/bfs.hpp"
#include "schedcore/policy/cfs.hpp"
#include "schedcore/policy/cfs_bandwidth.hpp"
#include "schedcore/policy/cfs2007.hpp"
#include "schedcore/policy/class_stack.hpp"
#include "schedcore/policy/dl_server.hpp"
#include "schedcore/policy/edf.hpp"
#include "schedcore/policy/eevdf.hpp"
#include "schedcore/policy/entity_access.hpp"
#include "schedcore/policy/fair_server_stack.hpp"
#include "schedcore/policy/fair_weights.hpp"
#include "schedcore/policy/flags.hpp"
#include "schedcore/policy/goodness24.hpp"
#include "schedcore/policy/group.hpp"
#include "schedcore/policy/nicksched.hpp"
#include "schedcore/policy/o1.hpp"
#include "schedcore/policy/params.hpp"
#include "schedcore/policy/policy.hpp"
#include "schedcore/policy/rt.hpp"
#include "schedcore/policy/sd.hpp"

// SMP helpers: capacity, energy model and schedutil's I/O boost, load tracking, util_est and
// uclamp, group shares, wake-affine
#include "schedcore/smp/capacity.hpp"
#include "schedcore/smp/energy_model.hpp"
#include "schedcore/smp/group_shares.hpp"
#include "schedcore/smp/iowait_boost.hpp"
#include "schedcore/smp/pelt.hpp"
#include "schedcore/smp/uclamp.hpp"
#include "schedcore/smp/util_est.hpp"
#include "schedcore/smp/wake_affine.hpp"

#endif
