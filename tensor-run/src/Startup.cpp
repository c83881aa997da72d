// What runs when the library is loaded, before the program's main():
// settings are read (a bad value, or a record file that cannot be written,
// stops here; records lost later make the exit status 2), a second LibTorch in the
// process, or another release than tensor-run's, is refused (LibTorchVersion.h),
// and the library takes itself out of LD_PRELOAD so the program's child
// processes run uninstrumented (and DEBUGINFOD_URLS out of the environment,
// see below).
#include <dlfcn.h>
#include <link.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "Config.h"
#include "LibTorchVersion.h"
#include "Recorder.h"
#include "tt/validation_log.h"

namespace tensor_run {
namespace {

std::string own_path() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&own_path), &info) && info.dli_fname) return info.dli_fname;
  return {};
}

// Drops this library from LD_PRELOAD (entries separated by ':' or ' ').
void leave_ld_preload(const std::string& self) {
  const char* value = std::getenv("LD_PRELOAD");
  if (!value) return;
  const std::string base = self.substr(self.rfind('/') + 1);
  std::string kept, entry;
  auto flush = [&] {
    if (!entry.empty() && entry != self && entry.substr(entry.rfind('/') + 1) != base)
      kept += (kept.empty() ? "" : ":") + entry;
    entry.clear();
  };
  for (const char* p = value;; ++p) {
    if (*p == '\0' || *p == ':' || *p == ' ') {
      flush();
      if (*p == '\0') break;
    } else {
      entry += *p;
    }
  }
  if (kept.empty())
    unsetenv("LD_PRELOAD");
  else
    setenv("LD_PRELOAD", kept.c_str(), 1);
}

// The paths of every libc10 in the process: more than one means the program
// brought its own LibTorch, which this library was not built against.
int collect_c10(struct dl_phdr_info* info, size_t, void* data) {
  const char* name = info->dlpi_name;
  if (name && *name) {
    const char* base = std::strrchr(name, '/');
    base = base ? base + 1 : name;
    if (std::strncmp(base, "libc10.so", 9) == 0) static_cast<std::vector<std::string>*>(data)->push_back(name);
  }
  return 0;
}

// At exit in record mode: a run that lost records must not end as if its
// log were complete (a CI job would read the log as the whole story). The
// status becomes 2, tensor-run's own, replacing the program's.
void end_of_records() {
  const unsigned lost = lost_records();
  if (lost == 0) return;
  std::fflush(nullptr);
  std::fprintf(stderr,
               "tensor-run: %u violation record(s) could not be written to %s, so the log is incomplete; exit "
               "status 2\n",
               lost, config().log_path.c_str());
  std::fflush(stderr);
  std::_Exit(2);
}

__attribute__((constructor)) void start() {
  (void)config();  // exits with a message on a bad setting
  if (config().mode == Mode::Record) {
    // The driver checks this too; the library, preloaded by hand, must not
    // run a program whose every record would be lost.
    std::string reason;
    if (!tt::can_append_validation_log(config().log_path, &reason)) {
      std::fprintf(stderr, "tensor-run: cannot write the record file %s: %s\n", config().log_path.c_str(),
                   reason.c_str());
      std::_Exit(2);
    }
    std::atexit(end_of_records);
  }
  std::vector<std::string> c10;
  dl_iterate_phdr(&collect_c10, &c10);
  if (const std::string other = other_loaded_libc10(c10); !other.empty()) {
    std::fprintf(stderr, "tensor-run: %s\n", other_libtorch_message("the program", other).c_str());
    std::_Exit(2);
  }
  leave_ld_preload(own_path());
  // libdw would fetch missing debug information from debuginfod servers
  // when this is set, from inside a violation (and under a lock): the
  // symbolizer uses what is on this machine only.
  unsetenv("DEBUGINFOD_URLS");
}

}  // namespace
}  // namespace tensor_run
