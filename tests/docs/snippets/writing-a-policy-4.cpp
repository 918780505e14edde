// Context of docs/guides/writing-a-policy.md's ```cpp block 4 (the schedsim entry), compiled by
// tests/docs/CMakeLists.txt. A complete translation unit: the context is the include, with
// schedsim's directory on the include path as the guide says. Hosted: the simulator is.
// snippet: hosted
// snippet-include-dir: examples/schedsim
// snippet-skip-32-bit: the simulator is a 64-bit host tool (its headers do not build with -m32)
#include SNIPPET_FILE
