// The grouped fair classes the group tests run under (group_policy_test, group_bandwidth_test):
// group_policy over cfs and over eevdf on one CPU, with the flat policy beside it, and the names
// GoogleTest prints for them.
#ifndef SCHEDCORE_TESTS_GROUP_SETUPS_HPP
#define SCHEDCORE_TESTS_GROUP_SETUPS_HPP

#include <string>
#include <type_traits>

#include <gtest/gtest.h>

#include "schedcore/policy/cfs.hpp"
#include "schedcore/policy/eevdf.hpp"
#include "schedcore/policy/group.hpp"
#include "tick_driver.hpp"

namespace schedcore_test {

/// group_policy over `Policy<node>` (one CPU's fair class with task groups), driven directly
/// (`rq`: with schedule(), next_timer() and timer() for tick_driver).
template <class Entity, template <class, class> class Policy>
struct fair_group_setup {
  using node = schedcore::group_node<Entity>;
  struct task : node {};
  using policy = schedcore::group_policy<task, Policy<node, schedcore::base_entity<Entity>>>;
  using group = typename policy::task_group;
  using rq = single_class<policy>;
  using flat_task = Entity;
  using flat_policy = Policy<Entity, schedcore::base_entity<Entity>>;
};
using cfs_group_setup = fair_group_setup<schedcore::cfs_entity, schedcore::cfs_policy>;
using eevdf_group_setup = fair_group_setup<schedcore::eevdf_entity, schedcore::eevdf_policy>;
using fair_group_setups = ::testing::Types<cfs_group_setup, eevdf_group_setup>;
/// "cfs" and "eevdf" in the test names.
struct fair_group_setup_names {
  template <class S>
  static std::string GetName(int) {
    return std::is_same_v<S, cfs_group_setup> ? "cfs" : "eevdf";
  }
};

}  // namespace schedcore_test

#endif
