# Makes the checkpoints in this folder with real PyTorch and prints what PyTorch loads from
# them (expected.txt): `oracle run tests/data/pytorch_files/make.py > tests/data/pytorch_files/expected.txt`
# (the oracle prelude defines p()). Files are written to /tmp/fx, then copied here.
import collections, os
os.makedirs("/tmp/fx", exist_ok=True)
x = torch.arange(6.0).view(2, 3)
zb = torch.tensor([1+2j, 3-4j])
obj = {"zb": zb, "zc": zb.conj(), "a": x, "b": x[1], "n": 3, "f": 1.5, "s": "hi", "l": [1, True, None], "t": (1, 2), "size": torch.Size([2, 3]), "dt": torch.float16, "g": torch.ones(2, requires_grad=True), "h": torch.arange(4, dtype=torch.int16).view(2, 2).t(), "u": torch.ones(2, dtype=torch.uint16)}
torch.save(obj, "/tmp/fx/pytorch_values.pt")
lin = torch.nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.arange(6.0).view(2, 3) / 10)
    lin.bias.copy_(torch.tensor([0.5, -0.5]))
torch.save(lin.state_dict(), "/tmp/fx/pytorch_state_dict.pt")
torch.save({"w": lin.weight}, "/tmp/fx/pytorch_parameter.pt")
import zipfile, pickletools
torch.save({"f": torch.arange(3.0), "l": torch.arange(3), "h": torch.arange(3).half(), "z": torch.tensor([1+2j]), "v": torch.arange(3, dtype=torch.int32)[1:]}, "/tmp/fx/le.pt")
zin = zipfile.ZipFile("/tmp/fx/le.pt")
pk = zin.read("le/data.pkl")
sizes = {}
for op, arg, pos in pickletools.genops(pk):
    pass
# itemsize per record key, from the persistent ids (class name)
itemsize = {"FloatStorage": 4, "LongStorage": 8, "HalfStorage": 2, "ComplexFloatStorage": 4, "IntStorage": 4}
keys = {}
last_class = None
for op, arg, pos in pickletools.genops(pk):
    if op.name == "GLOBAL" and arg.startswith("torch ") and arg.endswith("Storage"):
        last_class = arg.split()[1]
    if op.name == "BINUNICODE" and last_class and arg.isdigit():
        keys[arg] = itemsize[last_class]; last_class = None
zout = zipfile.ZipFile("/tmp/fx/pytorch_big_endian.pt", "w")
for i in zin.infolist():
    data = zin.read(i.filename)
    name = i.filename.replace("le/", "pytorch_big_endian/", 1)
    if name.endswith("/byteorder"):
        data = b"big"
    elif "/data/" in name and not name.endswith("serialization_id"):
        w = keys[name.rsplit("/", 1)[1]]
        data = b"".join(data[j:j+w][::-1] for j in range(0, len(data), w))
    zout.writestr(name, data)
zout.close()
for f in ["pytorch_values.pt", "pytorch_state_dict.pt", "pytorch_parameter.pt", "pytorch_big_endian.pt"]:
    d = torch.load("/tmp/fx/" + f)
    owners = {}  # storage address -> the first key viewing it: sharing, as loaded
    for k in sorted(d.keys()):
        v = d[k]
        if isinstance(v, torch.Tensor):
            s = v.untyped_storage()
            first = owners.setdefault(s.data_ptr(), k)
            p(f, k, v.detach(), list(v.stride()), v.storage_offset(), v.requires_grad, first, s.nbytes())
        else:
            p(f, k, v)
