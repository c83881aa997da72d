//===--- OpSchema.cpp - ATen operator schemas -----------------------------===//

#include "OpSchema.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::tensor {
namespace {

// Splits \p S at top-level commas: not inside (), [] or a quoted string
// (defaults such as `int[2] stride=[1, 1]` or `str reduce="mean"`).
llvm::SmallVector<llvm::StringRef, 8> splitTopLevel(llvm::StringRef S) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  int Depth = 0;
  char Quote = 0;
  size_t Start = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    if (Quote) {
      if (C == Quote)
        Quote = 0;
      continue;
    }
    if (C == '"' || C == '\'')
      Quote = C;
    else if (C == '(' || C == '[')
      ++Depth;
    else if (C == ')' || C == ']')
      --Depth;
    else if (C == ',' && Depth == 0) {
      Parts.push_back(S.slice(Start, I).trim());
      Start = I + 1;
    }
  }
  llvm::StringRef Last = S.drop_front(Start).trim();
  if (!Last.empty() || !Parts.empty())
    Parts.push_back(Last);
  return Parts;
}

// The position of the first '=' outside brackets and quotes, or npos.
size_t defaultMarker(llvm::StringRef S) {
  int Depth = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    if (C == '(' || C == '[')
      ++Depth;
    else if (C == ')' || C == ']')
      --Depth;
    else if (C == '=' && Depth == 0)
      return I;
  }
  return llvm::StringRef::npos;
}

bool isIdentifierChar(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') ||
         (C >= '0' && C <= '9') || C == '_';
}

// "Tensor(a!)[]", "int[2]?", "SymInt": the kind, list-ness, optionality
// and alias annotation of a type.
bool parseType(llvm::StringRef T, OpSchema::Argument &A) {
  T = T.trim();
  if (T.empty())
    return false;
  if (T.consume_back("?"))
    A.Optional = true;
  bool List = false;
  if (T.ends_with("]")) {
    size_t Open = T.rfind('[');
    if (Open == llvm::StringRef::npos)
      return false;
    List = true;
    T = T.take_front(Open);
  }
  if (T.consume_back("?")) // Tensor?[]: optional elements
    A.Optional = List ? A.Optional : true;
  if (size_t Paren = T.find('('); Paren != llvm::StringRef::npos) {
    llvm::StringRef Annotation = T.drop_front(Paren + 1);
    if (!Annotation.consume_back(")"))
      return false;
    A.Aliases = true;
    A.Writes = Annotation.contains('!');
    T = T.take_front(Paren).trim();
  }
  if (T.empty() ||
      !llvm::all_of(T, [](char C) { return isIdentifierChar(C) || C == '.'; }))
    return false;
  using Ty = OpSchema::Type;
  if (T == "Tensor")
    A.Ty = List ? Ty::TensorList : Ty::Tensor;
  else if (List)
    A.Ty = (T == "int" || T == "SymInt") ? Ty::IntList : Ty::Other;
  else if (T == "ScalarType")
    A.Ty = Ty::ScalarType;
  else if (T == "Device")
    A.Ty = Ty::Device;
  else if (T == "Scalar")
    A.Ty = Ty::Scalar;
  else if (T == "int" || T == "SymInt")
    A.Ty = Ty::Int;
  else if (T == "bool")
    A.Ty = Ty::Bool;
  else if (T == "float")
    A.Ty = Ty::Float;
  else
    A.Ty = Ty::Other;
  return true;
}

// "Tensor(a!) self", "int dim=0", "Tensor values" or (a return) "Tensor".
std::optional<OpSchema::Argument> parseArgument(llvm::StringRef S,
                                                bool NameRequired) {
  OpSchema::Argument A;
  size_t Eq = defaultMarker(S);
  if (Eq != llvm::StringRef::npos) {
    A.HasDefault = true;
    S = S.take_front(Eq).trim();
  }
  // The name is the last identifier, unless the whole is a type.
  size_t NameStart = S.size();
  while (NameStart > 0 && isIdentifierChar(S[NameStart - 1]))
    --NameStart;
  llvm::StringRef Type = S, Name;
  if (NameStart > 0 && NameStart < S.size() && S[NameStart - 1] == ' ') {
    Type = S.take_front(NameStart).trim();
    Name = S.drop_front(NameStart);
  }
  if (Name.empty() && NameRequired)
    return std::nullopt;
  if (!parseType(Type, A))
    return std::nullopt;
  A.Name = Name.str();
  return A;
}

} // namespace

std::optional<OpSchema> OpSchema::parse(llvm::StringRef Text) {
  Text = Text.trim();
  Text.consume_front("aten::");
  size_t Open = Text.find('(');
  if (Open == llvm::StringRef::npos || Open == 0)
    return std::nullopt;
  OpSchema Op;
  llvm::StringRef FullName = Text.take_front(Open);
  auto [Name, Overload] = FullName.split('.');
  if (Name.empty() || !llvm::all_of(Name, isIdentifierChar) ||
      !llvm::all_of(Overload, isIdentifierChar))
    return std::nullopt;
  Op.Name = Name.str();
  Op.Overload = Overload.str();

  // The arguments: up to the ')' that closes the first '('.
  int Depth = 0;
  size_t Close = llvm::StringRef::npos;
  for (size_t I = Open; I < Text.size(); ++I) {
    if (Text[I] == '(')
      ++Depth;
    else if (Text[I] == ')' && --Depth == 0) {
      Close = I;
      break;
    }
  }
  if (Close == llvm::StringRef::npos)
    return std::nullopt;
  bool KwargOnly = false;
  for (llvm::StringRef Part : splitTopLevel(Text.slice(Open + 1, Close))) {
    if (Part == "*") {
      KwargOnly = true;
      continue;
    }
    std::optional<Argument> A = parseArgument(Part, /*NameRequired=*/true);
    if (!A)
      return std::nullopt;
    A->KwargOnly = KwargOnly;
    Op.Arguments.push_back(std::move(*A));
  }

  llvm::StringRef Rest = Text.drop_front(Close + 1).trim();
  if (!Rest.consume_front("->"))
    return std::nullopt;
  Rest = Rest.trim();
  if (Rest.starts_with("(") && Rest.ends_with(")"))
    Rest = Rest.drop_front().drop_back();
  for (llvm::StringRef Part : splitTopLevel(Rest)) {
    std::optional<Argument> R = parseArgument(Part, /*NameRequired=*/false);
    if (!R)
      return std::nullopt;
    Op.Returns.push_back(std::move(*R));
  }
  return Op;
}

llvm::StringRef OpSchema::baseName() const {
  llvm::StringRef N = Name;
  if (N.size() > 1 && N.ends_with("_") && !N.ends_with("__"))
    N = N.drop_back();
  return N;
}

bool OpSchema::isInPlace() const {
  return !Arguments.empty() && Arguments[0].Writes && !Arguments[0].KwargOnly &&
         !Returns.empty() && Returns[0].Writes;
}

bool OpSchema::isOut() const {
  return llvm::any_of(
      Arguments, [](const Argument &A) { return A.Writes && A.KwargOnly; });
}

bool OpSchema::returnsView() const {
  return !Returns.empty() && Returns[0].Aliases && !Returns[0].Writes &&
         Returns[0].Ty == Type::Tensor;
}

unsigned OpSchema::tensorReturns() const {
  return static_cast<unsigned>(llvm::count_if(Returns, [](const Argument &R) {
    return R.Ty == Type::Tensor || R.Ty == Type::TensorList;
  }));
}

} // namespace clang::tidy::tensor
