/// @file
/// @brief schedcore's version. CMake parses these three macros; keep them on their own lines.
#ifndef SCHEDCORE_VERSION_HPP
#define SCHEDCORE_VERSION_HPP

/// Major version: bumped on incompatible API changes.
#define SCHEDCORE_VERSION_MAJOR 0
/// Minor version: bumped on compatible additions.
#define SCHEDCORE_VERSION_MINOR 1
/// Patch version: bumped on fixes.
#define SCHEDCORE_VERSION_PATCH 0

/// The version as one comparable integer: major * 10000 + minor * 100 + patch.
#define SCHEDCORE_VERSION \
  (SCHEDCORE_VERSION_MAJOR * 10000 + SCHEDCORE_VERSION_MINOR * 100 + SCHEDCORE_VERSION_PATCH)

#endif
