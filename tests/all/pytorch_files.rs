//! Checkpoints written by real PyTorch (`tests/data/pytorch_files/make.py`: a dict of values
//! and views, a module's state dict with its `_metadata`, a parameter, a big-endian file)
//! load in tensh as PyTorch loads them: the same values, strides, offsets and
//! `requires_grad`, and the same sharing: each tensor names the first key whose value views
//! its storage (`expected.txt` is PyTorch's output, never edited).

use tensh::script::session::Session;

#[test]
fn checkpoints_pytorch_wrote_load_as_pytorch_loads_them() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pytorch_files");
    let expected = std::fs::read_to_string(format!("{dir}/expected.txt")).expect("expected.txt");
    let script = format!(
        r#"for f in ["pytorch_values.pt", "pytorch_state_dict.pt", "pytorch_parameter.pt", "pytorch_big_endian.pt"] {{
               let d = torch::load("{dir}/" + f);
               let keys = d.keys();
               keys.sort();
               let owners = #{{}};
               for k in keys {{
                   let v = d[k];
                   if type_of(v) == "Tensor" {{
                       let s = v.untyped_storage();
                       let ptr = `${{s.data_ptr()}}`;
                       if !(ptr in owners) {{ owners[ptr] = k; }}
                       print(`${{f}} ${{k}} ${{v.detach()}} ${{v.stride()}} ${{v.storage_offset()}} ${{v.requires_grad}} ${{owners[ptr]}} ${{s.nbytes()}}`);
                   }} else {{
                       print(`${{f}} ${{k}} ${{v}}`);
                   }}
               }}
           }}"#
    );
    tensh::ops::output::start_capture();
    let mut s = Session::new();
    let r = s.eval(&script);
    let out = tensh::ops::output::take_capture();
    let _ = r.expect("loads every file");
    assert_eq!(out, expected);
}
