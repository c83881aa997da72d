// RUN: %check_tidy %s tensor-discarded-cast %t -- -- -std=c++17 %mock_torch

// A conversion assigned to a by-value copy that nothing reads again is as
// lost as a discarded one: a range-for variable copies the element (the
// container keeps its tensor; the fix-it makes the variable a reference),
// and a parameter by value is not the caller's handle. Only a copy whose
// every mention is such an assignment, written as a statement of the loop
// body or the function body, is reported.
#include <torch/torch.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

// --- Bugs --------------------------------------------------------------------

void batch_to_device(std::map<std::string, torch::Tensor> &batch, torch::Device device) {
  for (auto kv : batch) {
    kv.second = kv.second.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: result of 'kv.second.to(...)' is assigned to 'kv', a copy of an element of 'batch' that is not read again; 'batch' keeps the unconverted tensor [tensor-discarded-cast]
    // CHECK-FIXES: {{^}}  for (auto &kv : batch) {{{$}}
  }
}

void all_to_half(std::vector<torch::Tensor> &tensors) {
  for (torch::Tensor t : tensors) t = t.to(torch::kHalf);
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: result of 't.to(...)' is assigned to 't', a copy of an element of 'tensors' that is not read again; 'tensors' keeps the unconverted tensor [tensor-discarded-cast]
  // CHECK-FIXES: {{^}}  for (torch::Tensor &t : tensors) t = t.to(torch::kHalf);{{$}}
}

std::vector<torch::Tensor> parameters_of(int n);

void temporary_range() {
  // No fix-it: a reference into a temporary vector loses the result too.
  for (auto p : parameters_of(3)) p = p.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: result of 'p.cuda(...)' is assigned to 'p', a copy of an element of 'parameters_of(3)' that is not read again; the conversion is lost [tensor-discarded-cast]
}

void inputs_to_device(torch::Tensor images, torch::Tensor labels, torch::Device device) {
  images = images.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: result of 'images.to(...)' is assigned to parameter 'images', a copy that is not read again; the caller's tensor is unchanged [tensor-discarded-cast]
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: return the converted tensor, or take 'images' by reference
  labels = labels.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: result of 'labels.to(...)' is assigned to parameter 'labels', a copy that is not read again; the caller's tensor is unchanged [tensor-discarded-cast]
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: return the converted tensor, or take 'labels' by reference
}

// --- Clean -------------------------------------------------------------------

void by_reference(std::vector<torch::Tensor> &tensors, torch::Device device) {
  for (auto &t : tensors) t = t.to(device);
}

torch::Tensor read_after(torch::Tensor x, torch::Device device) {
  x = x.to(device);
  return x * 2;
}

void kept_elsewhere(const std::vector<torch::Tensor> &in, std::vector<torch::Tensor> &out,
                    torch::Device device) {
  for (auto t : in) {
    t = t.to(device);
    out.push_back(t);
  }
}

void read_next_iteration(std::vector<torch::Tensor> &tensors, torch::Device device) {
  torch::Tensor acc = torch::zeros({2});
  for (auto t : tensors) {
    for (int i = 0; i < 2; ++i) {
      acc = acc + t;
      t = t.to(device);
    }
  }
}

void aliased(std::vector<torch::Tensor> &tensors, std::vector<torch::Tensor *> &seen) {
  for (auto t : tensors) {
    seen.push_back(&t);
    t = t.cuda();
  }
}

void assigned_in_branch(torch::Tensor x, bool on_gpu) {
  if (on_gpu)
    x = x.cuda();
}

void in_place_changes_the_shared_tensor(std::vector<torch::Tensor> &tensors) {
  for (auto t : tensors)
    t.mul_(2);
}

// The pair's second member refers to the caller's tensor: the assignment
// writes through it.
void through_reference_members(std::vector<std::pair<std::string, torch::Tensor &>> &named,
                               torch::Device device) {
  for (auto kv : named)
    kv.second = kv.second.to(device);
}

torch::Tensor another_copy(torch::Tensor x) {
  torch::Tensor y = x;
  y = y.to(torch::kHalf);
  return y;
}
