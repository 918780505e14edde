/// @file
/// @brief `entity_hook_access`: the container accessor every policy uses to go from a task to
/// the hook inside its per-class entity and back (task → entity → hook, hook → entity → task).
///
/// A policy's entity (`rt_entity`, `cfs_entity` ...) derives from the hook(s) its containers
/// need; the task embeds the entity, found through the policy's `EntityOf` accessor
/// (policy/params.hpp). This one struct models both accessor shapes the containers read:
/// `to_hook`/`to_value` (intrusive/list.hpp, queue/prio_array.hpp) and `to_hook`/`from_hook`
/// (intrusive/rb_tree.hpp). Every conversion is a static_cast or the accessor's `task_of`: at
/// most one constant offset added or subtracted (a base other than the first, `member_entity`),
/// no load, no branch.
#ifndef SCHEDCORE_POLICY_ENTITY_ACCESS_HPP
#define SCHEDCORE_POLICY_ENTITY_ACCESS_HPP

#include "schedcore/core/traits.hpp"

namespace schedcore {

/// Accessor from `Task` to its `Hook`, a base class of the entity `EntityOf` finds in the task.
/// @tparam Task the task type
/// @tparam Entity the policy's entity type (derives from Hook)
/// @tparam EntityOf the policy's entity accessor (`base_entity<Entity>` or a user accessor)
/// @tparam Hook the hook the container links (a list hook or an rb_hook of the entity)
template <class Task, class Entity, class EntityOf, class Hook>
struct entity_hook_access {
  static_assert(is_base_of_v<Hook, Entity>, "the entity must derive from the hook");
  using value_type = Task;  ///< the element type
  using hook_type = Hook;   ///< the hook type

  /// The hook inside `t`'s entity.
  static constexpr Hook& to_hook(Task& t) noexcept { return static_cast<Entity&>(EntityOf::get(t)); }
  /// The hook inside `t`'s entity.
  static constexpr const Hook& to_hook(const Task& t) noexcept {
    return static_cast<const Entity&>(EntityOf::get(t));
  }
  /// The task whose entity contains hook `h`.
  static constexpr Task& to_value(Hook& h) noexcept {
    return EntityOf::template task_of<Task>(static_cast<Entity&>(h));
  }
  /// The task whose entity contains hook `h`.
  static constexpr const Task& to_value(const Hook& h) noexcept {
    return EntityOf::template task_of<Task>(const_cast<Entity&>(static_cast<const Entity&>(h)));
  }
  /// The task whose entity contains hook `h` (the name rb_tree reads).
  static constexpr Task& from_hook(Hook& h) noexcept { return to_value(h); }
};

}  // namespace schedcore

#endif
