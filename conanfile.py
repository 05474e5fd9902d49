# Conan 2 recipe: builds the library with the project's CMake (which runs
# cargo: the build needs Rust, see docs/install.md) and packages its install
# tree. The consumer's find_package(eventheader-tracepoint) through CMakeDeps
# gives the four targets the install's own CMake packages define:
# tracepoint, eventheader-tracepoint, tracepoint-headers, eventheader-headers.
#
#   conan create . -o "eventheader-tracepoint/*:shared=True"
#
# shared=False (the default) packages the static libraries, shared=True the
# shared library; the eventheader tool is left out (it is not a library).
# The test: scripts/package/conan-test.sh.
import os
import re

from conan import ConanFile
from conan.tools.cmake import CMake, CMakeToolchain, cmake_layout
from conan.tools.files import load, rm, rmdir, save


class EventheaderTracepointConan(ConanFile):
    name = "eventheader-tracepoint"
    license = "MIT"
    description = ("Linux user_events tracepoints and EventHeader events: the libtracepoint "
                   "and libeventheader-tracepoint C ABI and the TraceLogging headers")
    topics = ("tracing", "user_events", "tracepoint", "eventheader", "tracelogging")
    package_type = "library"
    settings = "os", "arch", "compiler", "build_type"
    options = {"shared": [True, False], "fPIC": [True, False]}
    default_options = {"shared": False, "fPIC": True}
    # The sources cargo and CMake read: the workspace's members and the
    # targets its manifests name must exist for cargo to load it.
    exports_sources = ("CMakeLists.txt", "Cargo.toml", "Cargo.lock", "cbindgen.toml",
                       "src/*", "include/*", "headers/*", "cmake/*", "pkgconfig/*",
                       "cli/*", "tests/*", "benches/*", "c-tests/*", "samples/*")

    def set_version(self):
        manifest = load(self, os.path.join(self.recipe_folder, "Cargo.toml"))
        self.version = re.search(r'^version\s*=\s*"([0-9.]+)"', manifest, re.M).group(1)

    def configure(self):
        # The library is C: no C++ standard library to match.
        self.settings.rm_safe("compiler.libcxx")
        self.settings.rm_safe("compiler.cppstd")
        if self.options.shared:
            # A shared library is always position-independent.
            self.options.rm_safe("fPIC")

    def validate(self):
        from conan.errors import ConanInvalidConfiguration
        if self.settings.os != "Linux":
            raise ConanInvalidConfiguration("user_events tracepoints are Linux only")

    def layout(self):
        cmake_layout(self)

    def generate(self):
        tc = CMakeToolchain(self)
        tc.cache_variables["EVENTHEADER_BUILD_CLI"] = False
        tc.cache_variables["TRACEPOINT_INSTALL_DEBUG"] = False
        tc.cache_variables["TRACEPOINT_CARGO_FLAGS"] = "--locked"
        tc.generate()

    def build(self):
        cmake = CMake(self)
        cmake.configure()
        cmake.build()

    def package(self):
        cmake = CMake(self)
        cmake.install()
        lib = os.path.join(self.package_folder, "lib")
        # One kind of library, so that the linker takes that one.
        if self.options.shared:
            rm(self, "*.a", lib)
        else:
            rm(self, "*.so*", lib)
            # The system libraries the static library needs (what rustc
            # reported when it built it), for package_info.
            native = load(self, os.path.join(lib, "cmake", "tracepoint", "tracepoint-native-libs.cmake"))
            libs = re.search(r'set\(_tracepoint_native_libs "([^"]*)"\)', native).group(1)
            save(self, os.path.join(self.package_folder, "res", "native-static-libs.txt"), libs + "\n")
        # The consumer's targets are CMakeDeps'; pkg-config files are
        # PkgConfigDeps' business.
        rmdir(self, os.path.join(lib, "cmake"))
        rmdir(self, os.path.join(lib, "pkgconfig"))

    def package_info(self):
        self.cpp_info.set_property("cmake_file_name", "eventheader-tracepoint")
        self.cpp_info.set_property("cmake_target_name", "eventheader-tracepoint")
        self.cpp_info.set_property("pkg_config_name", "eventheader-tracepoint")

        headers = self.cpp_info.components["tracepoint-headers"]
        headers.set_property("cmake_target_name", "tracepoint-headers")
        headers.libdirs = []

        eh_headers = self.cpp_info.components["eventheader-headers"]
        eh_headers.set_property("cmake_target_name", "eventheader-headers")
        eh_headers.libdirs = []
        eh_headers.requires = ["tracepoint-headers"]

        tracepoint = self.cpp_info.components["tracepoint"]
        tracepoint.set_property("cmake_target_name", "tracepoint")
        tracepoint.set_property("pkg_config_name", "tracepoint")
        tracepoint.libs = ["eventheader_tracepoint"]
        tracepoint.requires = ["tracepoint-headers"]
        if not self.options.shared:
            # The system libraries package() kept, and capture mode
            # (TRACEPOINT_CAPTURE_FILE) kept in every program, as the
            # install's CMake package does with TRACEPOINT_STATIC_CAPTURE.
            native = load(self, os.path.join(self.package_folder, "res", "native-static-libs.txt"))
            tracepoint.system_libs = [n for n in native.strip().split(";") if n and n != "c"]
            tracepoint.exelinkflags = ["-Wl,-u,tracepoint_set_capture_file"]
            tracepoint.sharedlinkflags = ["-Wl,-u,tracepoint_set_capture_file"]

        api = self.cpp_info.components["eventheader-tracepoint"]
        api.set_property("cmake_target_name", "eventheader-tracepoint")
        api.set_property("pkg_config_name", "eventheader-tracepoint-api")
        api.libdirs = []
        api.requires = ["eventheader-headers", "tracepoint"]
