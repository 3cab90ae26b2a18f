/* kinds.c - the node kinds TorchScript's AliasDb (torch 1.13.1,
 * torch/csrc/jit/ir/alias_analysis.cpp, AliasDb::analyzeImpl) handles by
 * kind rather than by schema, and the kinds Node::hasSideEffects names
 * (torch/csrc/jit/ir/ir.cpp). These are facts about torch, listed here once;
 * the analysis and the graph look a kind up when it is first interned. */
#include <string.h>

#include "alias/ir/ir_internal.h"

typedef struct kind_fact {
    const char *name;
    ir_kind kind;
} kind_fact;

static const kind_fact special[] = {
    {"prim::Param", IR_K_PARAM},
    {"prim::Return", IR_K_RETURN},
    {"prim::If", IR_K_IF},
    {"prim::Loop", IR_K_LOOP},
    {"prim::Constant", IR_K_CONSTANT},
    {"prim::ListConstruct", IR_K_LIST_CONSTRUCT},
    {"prim::TupleConstruct", IR_K_TUPLE_CONSTRUCT},
    {"prim::DictConstruct", IR_K_DICT_CONSTRUCT},
    {"prim::TupleUnpack", IR_K_EXTRACTOR},
    {"prim::TupleIndex", IR_K_EXTRACTOR},
    {"prim::TupleSlice", IR_K_EXTRACTOR},
    {"prim::ListUnpack", IR_K_EXTRACTOR},
    {"prim::PythonOp", IR_K_EXTRACTOR},
    {"prim::GetAttr", IR_K_GET_ATTR},
    {"prim::SetAttr", IR_K_SET_ATTR},
    {"prim::Uninitialized", IR_K_UNINITIALIZED},
    {"prim::AutogradZero", IR_K_AUTOGRAD_ZERO},
    {"prim::TensorExprGroup", IR_K_CREATOR},
    {"prim::TensorExprDynamicGroup", IR_K_CREATOR},
    {"prim::MKLDNNGroup", IR_K_CREATOR},
    {"prim::ConstantMKLDNNTensor", IR_K_CREATOR},
    {"prim::StaticSubgraph", IR_K_CREATOR},
    {"prim::AutogradAdd", IR_K_CREATOR},
    {"prim::FusedConcat", IR_K_CREATOR},
    {"prim::MMTreeReduce", IR_K_CREATOR},
    {"prim::MMBatchSide", IR_K_CREATOR},
    {"prim::BroadcastSizes", IR_K_CREATOR},
    {"prim::ChunkSizes", IR_K_CREATOR},
    {"prim::EmptyListLiteral", IR_K_CREATOR},
    {"prim::Closure", IR_K_CREATOR},
    {"prim::CreateObject", IR_K_CREATOR},
    {"prim::tolist", IR_K_CREATOR},
    {"prim::FusionGroup", IR_K_SUBGRAPH},
    {"prim::CudaFusionGroup", IR_K_SUBGRAPH},
    {"prim::oneDNNFusionGroup", IR_K_SUBGRAPH},
    {"prim::FunctionalGraph", IR_K_SUBGRAPH},
    {"prim::DifferentiableGraph", IR_K_SUBGRAPH},
    {"prim::FallbackGraph", IR_K_SUBGRAPH},
    {"prim::fork", IR_K_FORK},
    {"aten::wait", IR_K_WAIT},
    {"prim::rpc_async", IR_K_RPC},
    {"prim::rpc_sync", IR_K_RPC},
    {"prim::rpc_remote", IR_K_RPC},
    {"aten::batch_norm", IR_K_BATCH_NORM},
    {"aten::instance_norm", IR_K_INSTANCE_NORM},
    {"prim::GradOf", IR_K_GRAD_OF},
    {"prim::BroadcastMKLDNNTensors", IR_K_BROADCAST_MKLDNN},
    {"prim::unchecked_cast", IR_K_UNCHECKED_CAST},
    {"prim::ConstantChunk", IR_K_CONSTANT_CHUNK},
    {"prim::BroadcastingChunk", IR_K_BROADCASTING_CHUNK},
    {"prim::profile", IR_K_PROFILE},
    {"prim::profile_ivalue", IR_K_PROFILE},
    {"prim::TypeCheck", IR_K_TYPE_CHECK},
    {"prim::RequiresGradCheck", IR_K_TYPE_CHECK},
    {"prim::BailOut", IR_K_BAILOUT},
    {"prim::Guard", IR_K_GUARD},
    {"prim::CallFunction", IR_K_CALL},
    {"prim::CallMethod", IR_K_CALL},
    {"prim::Enter", IR_K_ENTER_EXIT},
    {"prim::Exit", IR_K_ENTER_EXIT},
    {"prim::Print", IR_K_NOOP},
    {"prim::isinstance", IR_K_NOOP},
};

/* Node::hasSideEffects: never reordered. (Operators AliasDb treats
 * conservatively have side effects too; the analysis adds those.) */
static const char *const side_effects[] = {
    "prim::PythonOp", "prim::IgnoredPythonOp", "prim::Print", "prim::RaiseException",
    "aten::warn", "aten::save", "aten::manual_seed", "prim::AddStatValue",
    "prim::TimePoint", "prim::CallFunction", "prim::CallMethod",
    "prim::BailoutTemplate", "prim::BailOut", "prim::rpc_async", "prim::rpc_sync",
    "prim::rpc_remote", "aten::wait", "cuda::set_stream", "cuda::_set_device",
    "cuda::_current_device", "cuda::synchronize", "prim::Enter", "prim::Exit",
};

/* AliasDb::functionalNonEscapingListUse: a list built only to be passed to
 * one of these does not let its elements escape. */
static const char *const list_consumers[] = {
    "aten::cat", "aten::broadcast_tensors", "aten::stack",
    "aten::vstack", "aten::hstack", "aten::dstack",
};

static bool named(const ir_kind_info *info, const char *name)
{
    return strlen(name) == info->len && !memcmp(name, info->name, info->len);
}

void ir_kind_classify(ir_kind_info *info)
{
    info->kind = IR_K_OTHER;
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        if (named(info, special[i].name)) {
            info->kind = special[i].kind;
            break;
        }
    for (size_t i = 0; i < sizeof side_effects / sizeof side_effects[0]; i++)
        if (named(info, side_effects[i])) info->side_effects = true;
    for (size_t i = 0; i < sizeof list_consumers / sizeof list_consumers[0]; i++)
        if (named(info, list_consumers[i])) info->list_non_escaping = true;
}
