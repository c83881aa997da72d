// Runs one case. A c10::Error that escapes (tensor-run's raise mode) is
// printed as "error: <message>" with exit status 1, as an uncaught
// exception would end a real program, but readable by the tests; with
// --uncaught it does end the program uncaught.
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "cases.h"

namespace cases {

std::map<std::string, Case>& registry() {
  static std::map<std::string, Case> r;
  return r;
}

void expect(bool ok, const char* what) {
  if (ok) return;
  std::cerr << "case failed: " << what << "\n";
  std::exit(3);
}

}  // namespace cases

int main(int argc, char** argv) {
  // --uncaught: the case's exception escapes main, as in a real program
  // (std::terminate prints its what(), backtrace included).
  const bool uncaught = argc == 3 && std::string(argv[1]) == "--uncaught";
  const char* name = argv[argc - 1];
  if ((argc != 2 && !uncaught) || !cases::registry().count(name)) {
    std::cerr << "usage: " << argv[0] << " [--uncaught] CASE\ncases:";
    for (const auto& [name, c] : cases::registry()) std::cerr << " " << name;
    std::cerr << "\n";
    return 2;
  }
  if (uncaught) {
    cases::registry()[name]();
    std::cout << "ok\n";
    return 0;
  }
  try {
    cases::registry()[name]();
  } catch (const c10::Error& e) {
    std::cerr << "error: " << e.what_without_backtrace() << "\n";
    return 1;
  }
  std::cout << "ok\n";
  return 0;
}
