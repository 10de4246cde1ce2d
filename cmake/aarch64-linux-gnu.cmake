# aarch64-linux-gnu.cmake — cross-compile hashbench for 64-bit ARM Linux on an x86-64 Debian
# machine: Debian's cross compiler (gcc-aarch64-linux-gnu) and the arm64 libraries installed
# beside the native ones (multiarch, /usr/lib/aarch64-linux-gnu); `make deps-aarch64` installs
# both and `make cross-aarch64` uses this file.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

# Libraries and headers of the target only; programs (cmake, pkg-config) of the build machine.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config reads the arm64 .pc files, never the native ones.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")

# The tests are built only with an arm64 Criterion (HB_ARM64_CRITERION, which `make
# cross-aarch64` passes; Criterion's arm64 package is not co-installable with the native one).
if(NOT HB_ARM64_CRITERION)
  set(BUILD_TESTING OFF CACHE BOOL "" FORCE)
endif()
