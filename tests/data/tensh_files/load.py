# Loads the checkpoints tensh wrote (make.rhai) in real PyTorch, with weights_only=True, and
# prints each value: tensors with strides, offset, requires_grad, the first key whose value
# shares its storage, and the storage's size in bytes. Regenerate expected.txt with
#   TENSH_FILES=$PWD/tests/data/tensh_files oracle run tests/data/tensh_files/load.py \
#       > tests/data/tensh_files/expected.txt
# (the oracle prelude defines p()); load.rhai prints the same in tensh.
import os
folder = os.environ["TENSH_FILES"]
for f in ["tensh_views.pt", "tensh_dtypes.pt", "tensh_storages.pt", "tensh_values.pt", "tensh_slice.pt", "tensh_conj.pt", "tensh_objects.pt"]:
    d = torch.load(os.path.join(folder, f), weights_only=True)
    owners = {}
    for k in sorted(d.keys()):
        v = d[k]
        if isinstance(v, torch.Tensor):
            s = v.untyped_storage()
            first = owners.setdefault(s.data_ptr(), k)
            p(f, k, v.detach(), list(v.stride()), v.storage_offset(), v.requires_grad, first, s.nbytes())
        elif isinstance(v, (torch.TypedStorage, torch.UntypedStorage)):
            s = v.untyped() if isinstance(v, torch.TypedStorage) else v
            first = owners.setdefault(s.data_ptr(), k)
            p(f, k, v, first, s.nbytes())
        elif isinstance(v, list):
            p(f, k, len(v))
            for i, e in enumerate(v):
                if isinstance(e, torch.Tensor):
                    first = owners.setdefault(e.untyped_storage().data_ptr(), k + str(i))
                    p(f, k, i, e, e.storage_offset(), first)
                else:
                    p(f, k, i, e)
        else:
            p(f, k, v)
