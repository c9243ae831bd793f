"""Generates expected.jsonl: crafted pickles and what PyTorch's `torch.load` (weights-only,
the default) makes of each. Run with the oracle's PyTorch:

    python3 ../shared/conformance/oracle run tests/data/weights_only/make.py > tests/data/weights_only/expected.jsonl

Each line is {"name", "pickle" (hex), "expected"}: "OK" when PyTorch loads it, else the
exception as `Kind: message`. Every archive holds `data/0`, 64 bytes (0, 1, ..., 63), for
persistent ids to name.
"""
import json, os, tempfile, warnings, zipfile

import torch

warnings.simplefilter("ignore")


def L(n, k):
    return n.to_bytes(k, "little", signed=n < 0)


def s(text):
    b = text.encode()
    return b"X" + L(len(b), 4) + b


def g(module, name):
    return b"c" + module.encode() + b"\n" + name.encode() + b"\n"


def pid(cls="FloatStorage", key="0", where="cpu", numel=16):
    return b"(" + s("storage") + g("torch", cls) + s(key) + s(where) + b"K" + bytes([numel]) + b"tQ"


def ints(values):
    return b"(" + b"".join(b"J" + L(v, 4) for v in values) + b"t"


def v2(storage=None, offset=b"K\x00", size=None, stride=None, rg=b"\x89", extra=b"ccollections\nOrderedDict\n)R"):
    storage = pid() if storage is None else storage
    size = ints([4]) if size is None else size
    stride = ints([1]) if stride is None else stride
    return g("torch._utils", "_rebuild_tensor_v2") + b"(" + storage + offset + size + stride + rg + extra + b"tR"


def param(data, rg=b"\x88"):
    return g("torch._utils", "_rebuild_parameter") + b"(" + data + rg + b"ccollections\nOrderedDict\n)Rt" + b"R"


CASES = {
    # Opcodes outside the weights-only unpickler's set, and inside it.
    "BINUNICODE8": b"\x8d" + L(2, 8) + b"ab.",
    "BINUNICODE": b"X" + L(2, 4) + b"ab.",
    "SHORT_BINUNICODE": b"\x8c\x02ab.",
    "UNICODE": b"Vab\n.",
    "STRING": b"S'ab'\n.",
    "BINSTRING": b"T" + L(2, 4) + b"ab.",
    "SHORT_BINSTRING": b"U\x02ab.",
    "BINBYTES": b"B" + L(2, 4) + b"ab.",
    "SHORT_BINBYTES": b"C\x02ab.",
    "BINBYTES8": b"\x8e" + L(2, 8) + b"ab.",
    "BYTEARRAY8": b"\x96" + L(2, 8) + b"ab.",
    "MEMOIZE": b"K\x01\x94.",
    "BINPUT and BINGET": b"K\x01q\x00\x85h\x00\x86.",
    "LONG_BINPUT and LONG_BINGET": b"K\x01r" + L(7, 4) + b"\x85j" + L(7, 4) + b"\x86.",
    "PUT": b"K\x01p0\n.",
    "GET": b"K\x01q\x00g0\n.",
    "a memo key never put": b"h\x03.",
    "INT": b"I12\n.",
    "LONG": b"L12L\n.",
    "FLOAT": b"F1.5\n.",
    "BINFLOAT": b"G" + bytes.fromhex("3ff8000000000000") + b".",
    "LONG1": b"\x8a\x01\x05.",
    "LONG1 beyond 64 bits": b"\x8a\x09" + b"\x01" * 9 + b".",
    "LONG4": b"\x8b" + L(1, 4) + b"\x05.",
    "BININT2": b"M\x05\x00.",
    "BININT negative": b"J\xff\xff\xff\xff.",
    "NONE": b"N.",
    "NEWTRUE": b"\x88.",
    "NEWFALSE and BININT1": b"\x89K\x07\x86.",
    "EMPTY_SET": b"\x8f.",
    "ADDITEMS": b"\x8f(K\x01\x90.",
    "FROZENSET": b"(K\x01\x91.",
    "LIST": b"(K\x01l.",
    "TUPLE": b"(K\x01t.",
    "TUPLE without a MARK": b"K\x01t.",
    "DICT": b"(K\x01K\x02d.",
    "EMPTY_DICT and SETITEM": b"}K\x01K\x02s.",
    "EMPTY_LIST and APPEND": b"]K\x01a.",
    "APPENDS": b"](K\x01K\x02e.",
    "APPENDS without a MARK": b"]K\x01e.",
    "SETITEMS": b"}(K\x01K\x02u.",
    "SETITEMS with an odd count": b"}(K\x01u.",
    "TUPLE2 and TUPLE3": b"K\x01K\x02\x86K\x03K\x04K\x05\x87\x86.",
    "TUPLE3 on a short stack": b"K\x01\x87.",
    "EMPTY_TUPLE": b").",
    "POP": b"K\x01K\x020.",
    "POP_MARK": b"K\x01(K\x021.",
    "DUP": b"K\x012\x86.",
    "FRAME": b"\x95" + L(2, 8) + b"N.",
    "PROTO 2": b"\x80\x02N.",
    "PROTO 7": b"\x80\x07N.",
    "NEXT_BUFFER": b"\x97.",
    "READONLY_BUFFER": b"N\x98.",
    "EXT1": b"\x82\x01.",
    "STACK_GLOBAL": b"\x8c\x05torch\x8c\x04Size\x93.",
    "NEWOBJ_EX": g("torch", "Size") + b"(K\x01K\x02t\x85}\x92.",
    "INST": b"(K\x01itorch\nSize\n.",
    "OBJ": b"(" + g("torch", "Size") + b"K\x01o.",
    "PERSID": b"Pfoo\n.",
    "an opcode no protocol has": b"\xff.",
    "STOP with more on the stack": b"K\x01K\x02.",
    "STOP on an empty stack": b".",
    "no STOP": b"K\x01",
    "a MARK left open": b"(K\x01.",
    "BINUNICODE cut short": b"X" + L(5, 4) + b"ab",
    "BINUNICODE that is not UTF-8": b"X" + L(2, 4) + b"\xff\xfe.",
    "SHORT_BINSTRING beyond ASCII": b"U\x02\xe9\xe8.",
    "BININT cut short": b"J\x01\x00",
    "BINFLOAT cut short": b"G\x3f\xf8",
    # What the allowed ops may be given.
    "APPEND to a tuple": b")K\x01a.",
    "SETITEM on a list": b"]K\x01K\x02s.",
    "a dict key that is a tuple": b"}K\x01K\x02\x86K\x03s.",
    "a dict key that is a list": b"}]K\x03s.",
    "BUILD on a dict": b"}}b.",
    "BUILD on a list": b"]}b.",
    "BUILD on None": b"N}b.",
    "BUILD on an OrderedDict": b"ccollections\nOrderedDict\n)R}" + s("a") + b"K\x01sb.",
    "REDUCE with arguments that are not a tuple": g("torch", "Size") + b"K\x01R.",
    "REDUCE on a number": b"K\x01)R.",
    "torch.Size of a list": g("torch", "Size") + b"]K\x01a\x85R.",
    "torch.Size of negative ints": g("torch", "Size") + ints([-3, 2]) + b"\x85R.",
    "torch.Size of a string": g("torch", "Size") + s("ab") + b"\x85R.",
    "torch.device cpu": g("torch", "device") + s("cpu") + b"\x85R.",
    "torch.device cuda": g("torch", "device") + s("cuda") + b"\x85R.",
    "torch.device with an index": g("torch", "device") + s("cpu") + b"K\x00\x86R.",
    "torch.device unknown": g("torch", "device") + s("xyz") + b"\x85R.",
    "OrderedDict": g("collections", "OrderedDict") + b")R.",
    "Counter": g("collections", "Counter") + b")R.",
    "set of a list": g("builtins", "set") + b"]K\x01aK\x01a\x85R.",
    "set of equal numbers": g("builtins", "set") + b"](K\x01G" + bytes.fromhex("3ff0000000000000") + b"\x88e\x85R.",
    "set of a list of lists": g("builtins", "set") + b"]]a\x85R.",
    "frozenset": g("builtins", "frozenset") + b"]K\x01a\x85R.",
    "bytearray": g("builtins", "bytearray") + b")R.",
    "complex": g("builtins", "complex") + b"K\x01K\x02\x86R.",
    "a dtype": g("torch", "float32") + b".",
    "a global outside the allow-list": g("os", "system") + b".",
    "a global from an allowed module": g("torch", "load") + b".",
    "_codecs.encode": g("_codecs", "encode") + s("ab") + s("latin1") + b"\x86R.",
    # Persistent ids and the rebuild functions with hostile arguments.
    "a storage": pid() + b".",
    "a persistent id that is not a tuple": s("x") + b"Q.",
    "a persistent id of another kind": b"(" + s("module") + g("torch", "FloatStorage") + s("0") + s("cpu") + b"K\x04tQ.",
    "a storage on cuda": pid(where="cuda:0") + b".",
    "a storage whose record is missing": pid(key="9") + b".",
    "a tensor": v2() + b".",
    "a tensor at a negative offset": v2(offset=b"J" + L(-1, 4)) + b".",
    "a tensor past its storage": v2(size=ints([17])) + b".",
    "a tensor with a negative size": v2(size=ints([-4])) + b".",
    "a tensor with a negative stride": v2(size=ints([4]), stride=ints([-1])) + b".",
    "a tensor whose size and stride differ in length": v2(size=ints([2, 2]), stride=ints([1])) + b".",
    "a tensor whose size is a string": v2(size=s("ab")) + b".",
    "a tensor whose size holds a float": v2(size=b"(G" + bytes.fromhex("4010000000000000") + b"t") + b".",
    "a tensor whose size is a list": v2(size=b"]K\x04a") + b".",
    "a tensor over a number": v2(storage=b"K\x01") + b".",
    "a tensor with too few arguments": g("torch._utils", "_rebuild_tensor_v2") + b"(" + pid() + b"K\x00tR.",
    "a tensor that requires grad": v2(rg=b"\x88") + b".",
    "an int tensor that requires grad": v2(storage=pid(cls="IntStorage"), rg=b"\x88") + b".",
    "a tensor whose requires_grad is a number": v2(rg=b"K\x01") + b".",
    "a tensor whose hooks are not a dict": v2(extra=b"K\x01") + b".",
    "a parameter": param(v2()) + b".",
    "a parameter that needs no grad": param(v2(), rg=b"\x89") + b".",
    "an int parameter that requires grad": param(v2(storage=pid(cls="LongStorage", numel=8))) + b".",
    "an int parameter that needs no grad": param(v2(storage=pid(cls="LongStorage", numel=8)), rg=b"\x89") + b".",
    "a parameter of a number": param(b"K\x01") + b".",
    "a parameter whose requires_grad is a number": param(v2(), rg=b"K\x01") + b".",
    "BUILD on a tensor with an empty dict": v2() + b"}b.",
    "BUILD on a tensor with a state": v2() + b"}" + s("a") + b"K\x01sb.",
    "BUILD on a tensor with a tuple state": v2() + b"N}\x86b.",
    "BUILD on a tensor with a number": v2() + b"K\x01b.",
    "BUILD on a parameter with a state": param(v2()) + b"}" + s("a") + b"K\x01sb.",
    "BUILD on a storage": pid() + b"}b.",
    # More of what the allowed ops may be given.
    "APPEND on an empty stack": b"a.",
    "APPEND with only the item": b"K\x01a.",
    "APPENDS to a tuple": b")(K\x01e.",
    "SETITEMS on a list": b"](K\x01K\x02u.",
    "SETITEM on a short stack": b"}K\x01s.",
    "TUPLE1 on an empty stack": b"\x85.",
    "BINPUT on an empty stack": b"q\x00.",
    "LONG_BINGET of a key never put": b"j" + L(9, 4) + b".",
    "REDUCE on an empty stack": b"R.",
    "BUILD on an empty stack": b"b.",
    "BINPERSID on an empty stack": b"Q.",
    "NEWOBJ": g("torch", "Size") + ints([1]) + b"\x85\x81.",
    "a dict key that is a dict": b"}}K\x03s.",
    "a dict key that is a float equal to an int": b"}K\x01K\x02sG" + bytes.fromhex("3ff0000000000000") + b"K\x03s.",
    "a dict key that is None": b"}NK\x03s.",
    "a dict key that is a tensor": b"}" + v2() + b"K\x03s.",
    "set of dicts": g("builtins", "set") + b"]}a\x85R.",
    "set of a tuple holding a list": g("builtins", "set") + b"](]\x85)e\x85R.",
    "set of two arguments": g("builtins", "set") + b"]]\x86R.",
    "OrderedDict of pairs": g("collections", "OrderedDict") + b"](" + s("a") + b"K\x01\x86e\x85R.",
    "OrderedDict of a number": g("collections", "OrderedDict") + b"K\x01\x85R.",
    "Counter of a dict": g("collections", "Counter") + b"}" + s("a") + b"K\x01s\x85R.",
    "complex of strings": g("builtins", "complex") + s("1") + s("2") + b"\x86R.",
    "complex of one argument": g("builtins", "complex") + b"K\x01\x85R.",
    "bytearray of a number": g("builtins", "bytearray") + b"K\x03\x85R.",
    "bytearray of a string": g("builtins", "bytearray") + s("ab") + b"\x85R.",
    "torch.Size of no arguments": g("torch", "Size") + b")R.",
    "torch.Size of two arguments": g("torch", "Size") + b")\x29\x86R.",
    "torch.Size of a huge int": g("torch", "Size") + b"(\x8a\x09" + b"\x01" * 9 + b"t\x85R.",
    "torch.device of a number": g("torch", "device") + b"K\x01\x85R.",
    "torch.device of cpu:3": g("torch", "device") + s("cpu:3") + b"\x85R.",
    "torch.device of no arguments": g("torch", "device") + b")R.",
    "a dtype called": g("torch", "float32") + b")R.",
    "a storage class called": g("torch", "FloatStorage") + b")R.",
    "UntypedStorage called": g("torch.storage", "UntypedStorage") + b")R.",
    "a persistent id whose key is a number": b"(" + s("storage") + g("torch", "FloatStorage") + b"K\x00" + s("cpu") + b"K\x04tQ.",
    "a persistent id whose class is not a storage": b"(" + s("storage") + g("torch", "Size") + s("0") + s("cpu") + b"K\x04tQ.",
    "a persistent id that is short": b"(" + s("storage") + g("torch", "FloatStorage") + b"tQ.",
    "a persistent id that is an int": b"K\x01Q.",
    "a storage whose numel is wrong": pid(numel=200) + b".",
    "a storage on meta": pid(where="meta") + b".",
    "a tensor of the whole storage as bytes": v2(storage=pid(cls="ByteStorage", numel=64), size=ints([64])) + b".",
    "a tensor with a huge size": v2(size=ints([2**31 - 1, 2**31 - 1]), stride=ints([0, 0])) + b".",
    "a tensor with a huge stride": v2(size=ints([2]), stride=ints([2**31 - 1])) + b".",
    "a tensor with an empty size": v2(size=b")", stride=b")") + b".",
    "a tensor with too many arguments": g("torch._utils", "_rebuild_tensor_v2") + b"(" + pid() + b"K\x00" + ints([4]) + ints([1]) + b"\x89ccollections\nOrderedDict\n)RNNNNtR.",
    "a tensor v3": g("torch._utils", "_rebuild_tensor_v3") + b"(" + pid(cls="ByteStorage", numel=64) + b"K\x00" + ints([4]) + ints([1]) + b"\x89ccollections\nOrderedDict\n)R" + g("torch", "int32") + b"tR.",
    "a tensor v3 without a dtype": g("torch._utils", "_rebuild_tensor_v3") + b"(" + pid(cls="ByteStorage", numel=64) + b"K\x00" + ints([4]) + ints([1]) + b"\x89ccollections\nOrderedDict\n)RtR.",
    "a tensor v3 whose dtype is a string": g("torch._utils", "_rebuild_tensor_v3") + b"(" + pid(cls="ByteStorage", numel=64) + b"K\x00" + ints([4]) + ints([1]) + b"\x89ccollections\nOrderedDict\n)R" + s("int32") + b"tR.",
    "a parameter with too few arguments": g("torch._utils", "_rebuild_parameter") + b"(" + v2() + b"tR.",
    "a parameter of a parameter": param(param(v2())) + b".",
    "BUILD on a tensor with three Nones": v2() + b"(NNNtb.",
    "BUILD on a tensor with a storage and its layout": v2() + b"(" + pid() + b"K\x01" + ints([2]) + ints([2]) + b"tb.",
    "BUILD on a parameter with an empty dict": param(v2()) + b"}b.",
    "BUILD on a parameter with three Nones": param(v2()) + b"(NNNtb.",
    "BUILD on a parameter with three dicts": param(v2()) + b"(}}}tb.",
    "BUILD on a storage with a state": pid() + b"}" + s("a") + b"K\x01sb.",
    "BUILD on a Counter": g("collections", "Counter") + b")R}b.",
    "BUILD on a set": g("builtins", "set") + b")R}b.",
}


def checkpoint(path, pickle):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr("archive/data.pkl", pickle)
        z.writestr("archive/byteorder", b"little")
        z.writestr("archive/data/0", bytes(range(64)))
        z.writestr("archive/version", b"3\n")


def main():
    path = os.path.join(tempfile.mkdtemp(), "crafted.pt")
    for name, pickle in CASES.items():
        checkpoint(path, pickle)
        try:
            value = torch.load(path)
            expected = "OK " + repr(value)
        except Exception as e:
            expected = f"{type(e).__name__}: {e}"
        print(json.dumps({"name": name, "pickle": pickle.hex(), "expected": expected}))


main()
