#include "Paths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace tensor_tidy::report {

std::string normalisePath(llvm::StringRef Path, llvm::StringRef BaseDir) {
  llvm::SmallString<256> Base(BaseDir);
  if (Base.empty() || !llvm::sys::path::is_absolute(Base))
    llvm::sys::fs::make_absolute(Base);  // relative base dirs are cwd-relative
  llvm::SmallString<256> P(Path);
  if (!llvm::sys::path::is_absolute(P)) {
    llvm::SmallString<256> Joined(Base);
    llvm::sys::path::append(Joined, P);
    P = Joined;
  }
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root) {
  if (Root.empty()) return Path.str();
  llvm::StringRef R = Root.rtrim('/');
  if (Path.starts_with(R) && Path.size() > R.size() && Path[R.size()] == '/')
    return Path.drop_front(R.size() + 1).str();
  return Path.str();
}

std::string pathFromUri(llvm::StringRef Uri) {
  Uri.consume_front("file://");
  std::string Out;
  for (size_t I = 0; I < Uri.size(); ++I) {
    if (Uri[I] == '%' && I + 2 < Uri.size() && llvm::isHexDigit(Uri[I + 1]) && llvm::isHexDigit(Uri[I + 2])) {
      Out += static_cast<char>(llvm::hexFromNibbles(Uri[I + 1], Uri[I + 2]));
      I += 2;
    } else {
      Out += Uri[I];
    }
  }
  return Out;
}

std::string uriEscape(llvm::StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    // RFC 3986 unreserved characters, plus the path separator.
    if (llvm::isAlnum(C) || C == '-' || C == '.' || C == '_' || C == '~' || C == '/') {
      Out += C;
    } else {
      Out += '%';
      Out += llvm::hexdigit(C >> 4, /*LowerCase=*/false);
      Out += llvm::hexdigit(C & 15, /*LowerCase=*/false);
    }
  }
  return Out;
}

}  // namespace tensor_tidy::report
