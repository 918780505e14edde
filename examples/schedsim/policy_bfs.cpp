// schedsim policy: BFS/MuQSS.
#include "policy_entry.hpp"
#include "schedcore/policy/bfs.hpp"

SCHEDSIM_POLICY(schedsim_register_bfs, "bfs", "BFS/MuQSS virtual deadline (policy/bfs.hpp)", ::schedcore::bfs_entity, ::schedcore::bfs_policy)
