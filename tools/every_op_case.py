"""Writes the conformance case that calls every registered name with an unknown keyword
and with as many positionals as its registration takes (one more than PyTorch's
declaration allows), in Python and in Rhai; the oracle then fills in PyTorch's output.

    TENSH_REGISTRATIONS_OUT=/tmp/registrations.txt \
        cargo test --release --test signatures -- --ignored write_registrations
    python3 tools/every_op_case.py /tmp/registrations.txt \
        tests/conformance/own/errors/every_op_arguments.case
    ../shared/conformance/oracle gen tests/conformance/own/errors/every_op_arguments.case
"""
import sys
# `torch` functions whose wrong calls PyTorch words from its Python-level machinery (the
# grad-mode context managers' `__new__`/`__init__`, `unique`'s boolean dispatch to
# `_return_output`, C functions that ignore positionals, pybind11's "incompatible function
# arguments" of `init_num_threads`); tensh words them its own way,
# so they are left out rather than expected to differ.
SKIP = {'as_tensor', 'asarray', 'enable_grad', 'no_grad', 'inference_mode', 'set_grad_enabled',
        'is_grad_enabled', 'is_inference_mode_enabled', 'is_vulkan_available', 'unique',
        'unique_consecutive', 'init_num_threads'}
RECV = {
 'Tensor': ('def X(): return torch.arange(6.).view(2, 3)', 'fn X() { torch::arange(6.0).view(2, 3) }'),
 'UntypedStorage': ('def U(): return torch.UntypedStorage(4)', 'fn U() { torch::UntypedStorage(4) }'),
 'TypedStorage': ('def T(): return torch.FloatStorage(2)', 'fn T() { torch::FloatStorage(2) }'),
 'buffer': ('def B(): return bytearray([97, 98])', 'fn B() { bytearray([97, 98]) }'),
 'Size': ('def S(): return torch.Size([2, 3])', 'fn S() { torch::Size([2, 3]) }'),
 'complex': ('def C(): return 1+2j', 'fn C() { torch::complex(1.0, 2.0) }'),
 'return_types': ('def R(): return torch.arange(6.).view(2, 3).max(1)', 'fn R() { torch::arange(6.0).view(2, 3).max(1) }'),
 'grad_fn': ('def G(): return (torch.ones(2, requires_grad=True) * 2).grad_fn', 'fn G() { (torch::ones(2, #{requires_grad: true}) * 2).grad_fn }'),
}
CALL = {'Tensor': 'X()', 'UntypedStorage': 'U()', 'TypedStorage': 'T()', 'buffer': 'B()', 'Size': 'S()',
        'complex': 'C()', 'return_types': 'R()', 'grad_fn': 'G()'}
py, rh = [], []
for line in open(sys.argv[1]):
    f = line.split()
    if f[0] == 'M':
        _, ty, name, k = f
        k = int(k); r = CALL[ty]
        if name == 'len' or (name == 'tolist' and ty in ('Size', 'buffer', 'return_types')):
            b = 'len' if name == 'len' else 'list'
            pyk, pyp = f'{b}({r}, zzz=1)', f'{b}({r}, {", ".join(["1"]*k)})'
        else:
            pyk, pyp = f'{r}.{name}(zzz=1)', f'{r}.{name}({", ".join(["1"]*k)})'
        rhk, rhp = f'{r}.{name}(#{{zzz: 1}})', f'{r}.{name}({", ".join(["1"]*k)})'
    elif f[0] == 'F':
        _, name, k = f
        if name in SKIP:
            continue
        k = int(k)
        pn = name.replace('::', '.')
        pyk, pyp = f'torch.{pn}(zzz=1)', f'torch.{pn}({", ".join(["1"]*k)})'
        rhk, rhp = f'torch::{name}(#{{zzz: 1}})', f'torch::{name}({", ".join(["1"]*k)})'
    else:
        continue
    py += [f'err(lambda: {pyk})', f'err(lambda: {pyp})']
    rh += [f'err(|| {rhk});', f'err(|| {rhp});']
out = ['title: every registered name refuses an unknown keyword and one positional too many with PyTorch\'s TypeError (generated from the registrations by tools/every_op_case.py)', '--- python', 'import warnings', 'warnings.simplefilter("ignore")']
out += [v[0] for v in RECV.values()] + py
out += ['--- rhai', 'fn err(f) {', '    try {', '        f.call();', '        print("no error");', '    } catch (e) {', '        print(e);', '    }', '}']
out += [v[1] for v in RECV.values()] + rh
out += ['--- expected', '']
open(sys.argv[2], 'w').write('\n'.join(out))
