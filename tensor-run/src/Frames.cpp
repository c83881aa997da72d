#include "Frames.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <execinfo.h>
#include <gelf.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace tensor_run {

namespace {

std::string demangle(const char* name) {
  if (!name) return {};
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(name, nullptr, nullptr, &status), std::free);
  return status == 0 && d ? std::string(d.get()) : std::string(name);
}

std::string basename_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

std::string join_path(const char* dir, const char* file) {
  if (!file) return {};
  if (file[0] == '/' || !dir || !*dir) return file;
  std::string d = dir;
  if (d.back() != '/') d += '/';
  return d + file;
}

// The path of tensor-run's own library, to drop its frames.
std::string self_path() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&capture_stack), &info) || !info.dli_fname) return {};
  // LD_PRELOAD may name it relatively; libdw reports absolute paths.
  std::unique_ptr<char, void (*)(void*)> real(realpath(info.dli_fname, nullptr), std::free);
  return real ? std::string(real.get()) : std::string(info.dli_fname);
}

// libdw's view of the process, and the per-address cache. libdw is not
// thread-safe: everything here runs under one mutex.
class Symbolizer {
 public:
  std::vector<Frame> frames_of(std::uintptr_t pc) {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = cache_.find(pc); it != cache_.end()) return it->second;
    std::vector<Frame> frames = lookup(pc);
    cache_.emplace(pc, frames);
    return frames;
  }

  // The frames of a function the program called at return address ret and
  // that left its own frame by a tail call (a jump) to the library
  // function `inner` (demangled): `return x.mul_(s);` compiles to one at
  // -O2. The stack then goes from `inner` straight to the caller, and the
  // violation was placed at the call instead of the jump. Found by the
  // call site's DWARF record (DW_TAG_call_site) and the callee's one tail
  // call to `inner`; empty when that is not so.
  std::vector<Frame> tail_called(std::uintptr_t ret, const std::string& inner) {
    std::lock_guard<std::mutex> lock(mu_);
    const auto key = std::make_pair(ret, inner);
    if (auto it = tail_cache_.find(key); it != tail_cache_.end()) return it->second;
    std::vector<Frame> frames = tail_call_lookup(ret, inner);
    tail_cache_.emplace(key, frames);
    return frames;
  }

 private:
  static const Dwfl_Callbacks* callbacks() {
    static char* debuginfo_path = nullptr;
    static const Dwfl_Callbacks cb = {
        dwfl_linux_proc_find_elf,
        dwfl_standard_find_debuginfo,
        nullptr,
        &debuginfo_path,
    };
    return &cb;
  }

  // (Re)reports the process's objects: libraries dlopen()ed after the last
  // report are only known after this.
  void report() {
    if (dwfl_) dwfl_end(dwfl_);
    dwfl_ = dwfl_begin(callbacks());
    if (!dwfl_) return;
    if (dwfl_linux_proc_report(dwfl_, getpid()) != 0 || dwfl_report_end(dwfl_, nullptr, nullptr) != 0) {
      dwfl_end(dwfl_);
      dwfl_ = nullptr;
    }
  }

  Dwfl_Module* module_of(std::uintptr_t pc) {
    if (!dwfl_) report();
    Dwfl_Module* m = dwfl_ ? dwfl_addrmodule(dwfl_, pc) : nullptr;
    if (!m && dwfl_) {
      report();
      m = dwfl_ ? dwfl_addrmodule(dwfl_, pc) : nullptr;
    }
    return m;
  }

  // A function's mangled name from its DIE (or the declaration it
  // completes), "" when it has none (internal linkage, a lambda).
  static std::string linkage_name(Dwarf_Die* die) {
    Dwarf_Attribute attr;
    for (int at : {DW_AT_linkage_name, DW_AT_MIPS_linkage_name})
      if (dwarf_attr_integrate(die, at, &attr))
        if (const char* name = dwarf_formstring(&attr)) return name;
    return {};
  }

  // A function's name: its demangled linkage name when it has one, else
  // (internal linkage, as in an anonymous namespace) its name qualified by
  // the namespaces and classes around its declaration.
  static std::string die_function_name(Dwarf_Die* die) {
    if (const std::string mangled = linkage_name(die); !mangled.empty()) return demangle(mangled.c_str());
    Dwarf_Attribute attr;
    const char* name = dwarf_diename(die);
    if (!name) return "";
    // From an inlined or out-of-line instance to the declaration.
    Dwarf_Die decl = *die;
    for (int hops = 0; hops < 8; ++hops) {
      Dwarf_Die next;
      if (dwarf_attr(&decl, DW_AT_abstract_origin, &attr) && dwarf_formref_die(&attr, &next))
        decl = next;
      else if (dwarf_attr(&decl, DW_AT_specification, &attr) && dwarf_formref_die(&attr, &next))
        decl = next;
      else
        break;
    }
    std::string qualified = name;
    Dwarf_Die* parents = nullptr;
    const int n = dwarf_getscopes_die(&decl, &parents);
    for (int i = 1; i < n; ++i) {
      const int tag = dwarf_tag(&parents[i]);
      // A local class's method sits in its function's DIE: `main`, then
      // the unnamed class of a lambda, as GCC's `main::{lambda()#1}`.
      if (tag != DW_TAG_namespace && tag != DW_TAG_class_type && tag != DW_TAG_structure_type &&
          tag != DW_TAG_union_type && tag != DW_TAG_subprogram)
        continue;
      const char* scope = dwarf_diename(&parents[i]);
      qualified = std::string(scope                     ? scope
                              : tag == DW_TAG_namespace ? "(anonymous namespace)"
                                                        : "{lambda}") +
                  "::" + qualified;
    }
    std::free(parents);
    return qualified;
  }

  // The compilation unit holding pc (its DIE, and the module's bias).
  // clang emits no .debug_aranges (unless -gdwarf-aranges), the table
  // dwfl_module_addrdie and dwfl_module_getsrc look addresses up in: a
  // clang-built program's records had no file or line. The units' own
  // ranges say the same, one unit at a time.
  static Dwarf_Die* unit_of(Dwfl_Module* m, std::uintptr_t pc, Dwarf_Addr* bias, Dwarf_Die* storage) {
    if (Dwarf_Die* cu = dwfl_module_addrdie(m, pc, bias)) return cu;
    Dwarf_Addr b = 0;
    for (Dwarf_Die* c = dwfl_module_nextcu(m, nullptr, &b); c; c = dwfl_module_nextcu(m, c, &b))
      if (dwarf_haspc(c, pc - b) == 1) {
        *storage = *c;
        *bias = b;
        return storage;
      }
    return nullptr;
  }

  // The scopes around address a (unit-relative) in cu, innermost first, by
  // nesting; 0 when none holds it. The caller frees *scopes.
  static int scopes_at(Dwarf_Die* cu, Dwarf_Addr a, Dwarf_Die** scopes) {
    *scopes = nullptr;
    int n = dwarf_getscopes(cu, a, scopes);
    Dwarf_Die innermost;
    bool found = n > 0;
    if (found) innermost = (*scopes)[0];
    std::free(*scopes);
    *scopes = nullptr;
    // dwarf_getscopes looks for a only under scopes whose ranges hold it,
    // but GCC nests a lambda's operator() (a local class's method) in its
    // enclosing function's DIE, whose ranges do not: a violation inside a
    // lambda was placed at the header line of the op its body inlined.
    if (!found) found = innermost_scope(cu, a, &innermost, 0);
    return found ? dwarf_getscopes_die(&innermost, scopes) : 0;
  }

  // A DW_TAG_call_site's (or GCC's DWARF 4 DW_TAG_GNU_call_site's) callee
  // and an address in its call instruction: one before the return address
  // (GCC writes that, for tail calls too), or the call's own address (clang
  // writes DW_AT_call_pc for a tail call). False for another DIE.
  static bool call_site(Dwarf_Die* die, Dwarf_Addr* in_call, Dwarf_Die* origin) {
    const int tag = dwarf_tag(die);
    if (tag != DW_TAG_call_site && tag != DW_TAG_GNU_call_site) return false;
    Dwarf_Attribute attr;
    Dwarf_Addr a = 0;
    if (dwarf_attr(die, tag == DW_TAG_call_site ? DW_AT_call_return_pc : DW_AT_low_pc, &attr) &&
        dwarf_formaddr(&attr, &a) == 0 && a > 0)
      *in_call = a - 1;
    else if (dwarf_attr(die, DW_AT_call_pc, &attr) && dwarf_formaddr(&attr, &a) == 0)
      *in_call = a;
    else
      return false;
    return (dwarf_attr(die, DW_AT_call_origin, &attr) || dwarf_attr(die, DW_AT_abstract_origin, &attr)) &&
           dwarf_formref_die(&attr, origin) != nullptr;
  }

  static bool is_tail_call(Dwarf_Die* die) {
    bool tail = false;
    Dwarf_Attribute attr;
    if (dwarf_attr(die, DW_AT_call_tail_call, &attr) || dwarf_attr(die, DW_AT_GNU_tail_call, &attr))
      dwarf_formflag(&attr, &tail);
    return tail;
  }

  // An address in each tail call to `callee` (a demangled signature) under
  // die.
  static void tail_calls_to(Dwarf_Die* die, const std::string& callee, std::vector<Dwarf_Addr>& out, int depth) {
    Dwarf_Die child;
    if (depth > 64 || dwarf_child(die, &child) != 0) return;
    do {
      Dwarf_Addr ret = 0;
      Dwarf_Die origin;
      if (call_site(&child, &ret, &origin)) {
        if (is_tail_call(&child) && demangle(linkage_name(&origin).c_str()) == callee) out.push_back(ret);
      } else {
        tail_calls_to(&child, callee, out, depth + 1);
      }
    } while (dwarf_siblingof(&child, &child) == 0);
  }

  std::vector<Frame> tail_call_lookup(std::uintptr_t ret, const std::string& inner) {
    // The call that returns to ret, and the function it called.
    Dwfl_Module* m = module_of(ret - 1);
    if (!m) return {};
    Dwarf_Addr bias = 0;
    Dwarf_Die storage;
    Dwarf_Die* cu = unit_of(m, ret - 1, &bias, &storage);
    if (!cu) return {};
    Dwarf_Die* scopes = nullptr;
    const int n = scopes_at(cu, ret - 1 - bias, &scopes);
    // Its DIE: the definition itself (a function of this unit), or a
    // declaration whose linkage name finds the definition by its symbol.
    Dwarf_Die callee;
    bool found = false;
    for (int i = 0; i < n && !found; ++i) {
      Dwarf_Die child;
      if (dwarf_child(&scopes[i], &child) == 0) do {
          Dwarf_Addr r = 0;
          if (call_site(&child, &r, &callee) && r == ret - 1 - bias) {
            found = true;
            break;
          }
        } while (dwarf_siblingof(&child, &child) == 0);
      if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram) break;
    }
    std::free(scopes);
    if (!found) return {};
    Dwarf_Addr low = 0, fbias = bias;
    Dwarf_Die fstorage;
    Dwarf_Die definition = callee;
    if (dwarf_lowpc(&callee, &low) != 0) {
      const std::string called = linkage_name(&callee);
      GElf_Addr where = 0;
      const int symbols = called.empty() ? 0 : dwfl_module_getsymtab(m);
      for (int i = 1; i < symbols && !where; ++i) {
        GElf_Sym sym;
        GElf_Addr addr = 0;
        const char* name = dwfl_module_getsym_info(m, i, &sym, &addr, nullptr, nullptr, nullptr);
        if (name && GELF_ST_TYPE(sym.st_info) == STT_FUNC && called == name) where = addr;
      }
      Dwarf_Die* fcu = where ? unit_of(m, where, &fbias, &fstorage) : nullptr;
      if (!fcu) return {};
      const int k = scopes_at(fcu, where - fbias, &scopes);
      found = false;
      for (int i = 0; i < k && !found; ++i)
        if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram) {
          definition = scopes[i];
          found = true;
        }
      std::free(scopes);
      if (!found) return {};
    }
    std::vector<Dwarf_Addr> tails;
    tail_calls_to(&definition, inner, tails, 0);
    // One tail call to it: the jump's frames.
    if (tails.size() != 1) return {};
    return lookup(tails.front() + fbias);
  }

  // The innermost scope under parent whose ranges hold pc, searching every
  // DIE (a scope may be nested in one whose ranges do not hold it).
  static bool innermost_scope(Dwarf_Die* parent, Dwarf_Addr pc, Dwarf_Die* out, int depth) {
    Dwarf_Die child;
    if (depth > 64 || dwarf_child(parent, &child) != 0) return false;
    do {
      if ((dwarf_hasattr(&child, DW_AT_low_pc) || dwarf_hasattr(&child, DW_AT_ranges)) &&
          dwarf_haspc(&child, pc) == 1) {
        *out = child;
        innermost_scope(&child, pc, out, depth + 1);
        return true;
      }
      if (innermost_scope(&child, pc, out, depth + 1)) return true;
    } while (dwarf_siblingof(&child, &child) == 0);
    return false;
  }

  std::vector<Frame> lookup(std::uintptr_t pc) {
    Frame base;
    base.pc = pc;
    Dwfl_Module* m = module_of(pc);
    if (!m) return {base};
    Dwarf_Addr start = 0;
    // For a process's modules the name is the object's path.
    const char* path = dwfl_module_info(m, nullptr, &start, nullptr, nullptr, nullptr, nullptr, nullptr);
    base.object = path ? path : "";
    base.offset = pc - start;
    base.kind = classify_object(base.object, self_);
    if (const char* sym = dwfl_module_addrname(m, pc)) base.function = demangle(sym);

    std::vector<Frame> out;
    Dwarf_Addr bias = 0;
    Dwarf_Die found_cu;
    Dwarf_Die* cu = unit_of(m, pc, &bias, &found_cu);
    const char* comp_dir = nullptr;
    if (cu) {
      Dwarf_Attribute attr;
      if (dwarf_attr(cu, DW_AT_comp_dir, &attr)) comp_dir = dwarf_formstring(&attr);
    }
    Frame f = base;
    if (Dwfl_Line* line = dwfl_module_getsrc(m, pc)) {
      int lineno = 0, col = 0;
      const char* file = dwfl_lineinfo(line, nullptr, &lineno, &col, nullptr, nullptr);
      f.file = join_path(comp_dir, file);
      f.line = lineno > 0 ? static_cast<unsigned>(lineno) : 0;
      f.column = col > 0 ? static_cast<unsigned>(col) : 0;
    } else if (Dwarf_Line* line = cu ? dwarf_getsrc_die(cu, pc - bias) : nullptr) {
      int lineno = 0, col = 0;
      dwarf_lineno(line, &lineno);
      dwarf_linecol(line, &col);
      f.file = join_path(comp_dir, dwarf_linesrc(line, nullptr, nullptr));
      f.line = lineno > 0 ? static_cast<unsigned>(lineno) : 0;
      f.column = col > 0 ? static_cast<unsigned>(col) : 0;
    }
    // The scopes around pc in the concrete tree, innermost first: the
    // innermost scope's parents by nesting (dwarf_getscopes alone follows
    // an inlined function into its abstract definition instead), as
    // eu-addr2line -i does.
    Dwarf_Die* scopes = nullptr;
    int n = cu ? scopes_at(cu, pc - bias, &scopes) : 0;
    Dwarf_Files* files = nullptr;
    size_t nfiles = 0;
    if (cu && dwarf_getsrcfiles(cu, &files, &nfiles) != 0) files = nullptr;
    bool closed = false;
    for (int i = 0; i < n; ++i) {
      const int tag = dwarf_tag(&scopes[i]);
      if (tag == DW_TAG_inlined_subroutine) {
        f.function = die_function_name(&scopes[i]);
        f.inlined = true;
        out.push_back(f);
        // The outer frame continues at this inlined call's site.
        Frame caller = base;
        Dwarf_Attribute attr;
        Dwarf_Word value = 0;
        if (files && dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &attr), &value) == 0 && value < nfiles)
          caller.file = join_path(comp_dir, dwarf_filesrc(files, value, nullptr, nullptr));
        if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &attr), &value) == 0)
          caller.line = static_cast<unsigned>(value);
        if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_column, &attr), &value) == 0)
          caller.column = static_cast<unsigned>(value);
        f = caller;
      } else if (tag == DW_TAG_subprogram) {
        // The symbol pc is in names this concrete function exactly (a
        // lambda's `main::{lambda()#2}::operator()() const`) where its DIE
        // has no linkage name.
        const bool linkage = !linkage_name(&scopes[i]).empty();
        const std::string name = linkage || base.function.empty() ? die_function_name(&scopes[i]) : base.function;
        if (!name.empty()) f.function = name;
        f.inlined = false;
        out.push_back(f);
        closed = true;
        break;
      }
    }
    std::free(scopes);
    if (!closed) out.push_back(f);
    return out;
  }

  std::mutex mu_;
  Dwfl* dwfl_ = nullptr;
  std::string self_ = self_path();
  std::unordered_map<std::uintptr_t, std::vector<Frame>> cache_;
  std::map<std::pair<std::uintptr_t, std::string>, std::vector<Frame>> tail_cache_;
};

Symbolizer& symbolizer() {
  static auto* s = new Symbolizer;  // leaked: used from storage deleters at exit
  return *s;
}

// Index of the '(' that opens the parameter list: the first at nesting
// depth 0 that is not part of "(anonymous namespace)" or "operator()".
std::size_t parameter_list(const std::string& s) {
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '<' || c == '[' || c == '{') {
      if (c == '<' && i >= 8 && s.compare(i - 8, 8, "operator") == 0) continue;  // operator<, operator<<
      ++depth;
    } else if (c == '>' || c == ']' || c == '}') {
      if (c == '>' && ((i >= 8 && s.compare(i - 8, 8, "operator") == 0) || (i >= 1 && s[i - 1] == '-'))) continue;
      if (depth > 0) --depth;
    } else if (c == '(' && depth == 0) {
      if (s.compare(i, 21, "(anonymous namespace)") == 0) {
        i += 20;
        continue;
      }
      if (i >= 8 && s.compare(i - 8, 8, "operator") == 0 && s.compare(i, 2, "()") == 0) {
        ++i;
        continue;
      }
      return i;
    }
  }
  return std::string::npos;
}

}  // namespace

std::vector<void*> capture_stack() {
  std::vector<void*> pcs(256);
  const int n = ::backtrace(pcs.data(), static_cast<int>(pcs.size()));
  pcs.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return pcs;
}

std::vector<Frame> symbolize(const std::vector<void*>& stack) {
  std::vector<Frame> out;
  for (std::size_t i = 0; i < stack.size(); ++i) {
    auto pc = reinterpret_cast<std::uintptr_t>(stack[i]);
    if (pc == 0) continue;
    // Return addresses point after the call; the line is the call's. The
    // innermost address is backtrace()'s own and is dropped as Self anyway.
    if (i > 0) pc -= 1;
    std::vector<Frame> frames = symbolizer().frames_of(pc);
    // From a library function into the program: the program's call may
    // have gone to a function of its own that jumped to that library
    // function, leaving no frame (Symbolizer::tail_called).
    if (i > 0 && !out.empty() && out.back().kind == ObjectKind::LibTorch && !frames.empty() &&
        frames.front().kind == ObjectKind::Program && !out.back().function.empty()) {
      std::vector<Frame> jumped = symbolizer().tail_called(pc + 1, out.back().function);
      for (Frame& f : jumped) out.push_back(std::move(f));
    }
    for (Frame& f : frames) {
      if (f.kind == ObjectKind::Self) continue;
      out.push_back(std::move(f));
    }
  }
  return out;
}

std::string qualified_name(const std::string& signature) {
  const std::size_t open = parameter_list(signature);
  std::string head = signature.substr(0, open);
  // A return type ends at the last space at depth 0 before the name.
  int depth = 0;
  std::size_t name_start = 0;
  for (std::size_t i = 0; i < head.size(); ++i) {
    const char c = head[i];
    if (c == '<' || c == '(' || c == '[' || c == '{')
      ++depth;
    else if ((c == '>' || c == ')' || c == ']' || c == '}') && depth > 0)
      --depth;
    else if (c == ' ' && depth == 0 && head.compare(i + 1, 10, "namespace)") != 0 &&
             !(i >= 8 && head.compare(i - 8, 8, "operator") == 0))
      name_start = i + 1;
  }
  return head.substr(name_start);
}

std::string unqualified_name(const std::string& qualified) {
  std::string s = qualified;
  // Drop trailing template arguments.
  if (!s.empty() && s.back() == '>') {
    int depth = 0;
    for (std::size_t i = s.size(); i-- > 0;) {
      if (s[i] == '>')
        ++depth;
      else if (s[i] == '<' && --depth == 0) {
        s.resize(i);
        break;
      }
    }
  }
  const auto colons = s.rfind("::");
  return colons == std::string::npos ? s : s.substr(colons + 2);
}

namespace {

// The length of an operator name with an angle bracket at s[i] ("operator<<",
// "operator->*"), 0 when there is none: those brackets are not template lists.
std::size_t angle_operator_at(const std::string& s, std::size_t i) {
  if (s.compare(i, 8, "operator") != 0) return 0;
  if (i > 0 && (std::isalnum(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '_')) return 0;
  for (const char* op : {"<=>", "<<=", ">>=", "->*", "<<", ">>", "<=", ">=", "->", "<", ">"})
    if (s.compare(i + 8, std::strlen(op), op) == 0) return 8 + std::strlen(op);
  return 0;
}

// The signature with the template argument lists opened at angle-bracket
// depth `keep` or deeper written as `<...>`.
std::string elide_templates(const std::string& s, int keep) {
  std::string out;
  out.reserve(s.size());
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (const std::size_t n = angle_operator_at(s, i)) {
      if (depth <= keep) out.append(s, i, n);
      i += n - 1;
      continue;
    }
    const char c = s[i];
    if (c == '<') {
      if (depth < keep)
        out += c;
      else if (depth == keep)
        out += "<...";
      ++depth;
    } else if (c == '>' && depth > 0) {
      --depth;
      if (depth <= keep) out += c;
    } else if (depth <= keep) {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string short_function_name(const std::string& signature, std::size_t max_length) {
  std::string s = elide_templates(signature, 1);
  if (s.size() > max_length) s = elide_templates(signature, 0);
  return s;
}

bool is_user_frame(const Frame& frame) {
  if (frame.kind != ObjectKind::Program) return false;
  if (!frame.file.empty()) {
    for (const char* dir : {"/usr/include/", "/usr/local/include/", "/usr/lib/gcc/", "/usr/lib/llvm"})
      if (starts_with(frame.file, dir)) return false;
    // LibTorch unpacked elsewhere (PyTorch's zip): its headers' paths.
    for (const char* part : {"/include/torch/", "/include/ATen/", "/include/c10/", "/include/caffe2/"})
      if (frame.file.find(part) != std::string::npos) return false;
    return true;
  }
  const std::string name = qualified_name(frame.function);
  for (const char* ns : {"torch::", "at::", "c10::", "caffe2::", "std::", "__gnu_cxx::"})
    if (starts_with(name, ns)) return false;
  // The C runtime's entry code linked into every executable.
  if (name == "_start" || name == "__libc_csu_init" || name == "_init") return false;
  return !frame.function.empty() || frame.offset != 0;
}

ObjectKind classify_object(const std::string& path, const std::string& self) {
  if (!self.empty() && path == self) return ObjectKind::Self;
  if (!self.empty() && !path.empty() && path[0] == '/') {
    std::unique_ptr<char, void (*)(void*)> real(realpath(path.c_str(), nullptr), std::free);
    if (real && self == real.get()) return ObjectKind::Self;
  }
  const std::string base = basename_of(path);
  for (const char* lib : {"libtorch", "libc10", "libcaffe2", "libshm"})
    if (starts_with(base, lib)) return ObjectKind::LibTorch;
  for (const char* dir : {"/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/", "/usr/local/lib/"})
    if (starts_with(path, dir)) return ObjectKind::System;
  if (base.rfind("linux-vdso", 0) == 0 || path.empty() || path[0] == '[') return ObjectKind::System;
  return ObjectKind::Program;
}

}  // namespace tensor_run
