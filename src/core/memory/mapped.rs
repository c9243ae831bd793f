//! Storages over memory maps: files (`from_file`, shared or private) and shared memory
//! (`share_memory_`), through the platform's maps (`platform::map`).

use super::shm::shared_memory;
use super::storage::{FileOrigin, Storage};
use crate::core::error::{Result, TorchError};
use crate::platform::fs::{OpenOptions, os_error};
use crate::platform::map;

/// `UntypedStorage.from_file(filename, shared, nbytes)`: a shared map writes through to the
/// file (created, and extended to `nbytes`, when needed); a private map is copy-on-write and
/// never changes the file. `nbytes == 0` gives an empty storage, as in PyTorch.
pub fn from_file(filename: &str, shared: bool, nbytes: usize) -> Result<Storage> {
    // As PyTorch: an empty map opens (and creates) no file at all.
    if nbytes == 0 {
        let map = map::anonymous(1).map_err(|e| TorchError::runtime(os_error(&e)))?;
        return Ok(Storage::mapped(
            map,
            0,
            shared.then(|| filename.to_string()),
            false,
            None,
        ));
    }
    let mode = if shared { "read-write" } else { "read-only" };
    let file = crate::platform::fs::open(
        filename,
        OpenOptions::new()
            .read(true)
            .write(shared)
            .create(shared)
            .truncate(false),
    )
    .map_err(|e| {
        TorchError::runtime(format!(
            "unable to open file <{filename}> in {mode} mode: {}",
            os_error(&e)
        ))
    })?;
    let size = file.metadata().map(|m| m.len() as usize).unwrap_or(0);
    if size < nbytes {
        if shared {
            file.set_len(nbytes as u64).map_err(|e| {
                TorchError::runtime(format!(
                    "unable to resize file <{filename}> to the right size: {}",
                    os_error(&e)
                ))
            })?;
        } else {
            return Err(TorchError::runtime(format!(
                "file <{filename}> size <{size}> is smaller than the required mapping size <{nbytes}>"
            )));
        }
    }
    let map = map::map_file(&file, shared, nbytes).map_err(|e| {
        TorchError::runtime(format!(
            "unable to mmap {nbytes} bytes from file <{filename}>: {}",
            os_error(&e)
        ))
    })?;
    let origin = FileOrigin::new(file).map_err(|e| TorchError::runtime(os_error(&e)))?;
    Ok(Storage::mapped(
        map,
        nbytes,
        shared.then(|| filename.to_string()),
        false,
        Some(origin),
    ))
}

/// `storage.share_memory_()`: moves the bytes into shared memory (no-op when already shared).
pub fn share_memory(storage: &Storage) -> Result<()> {
    if storage.is_shared() {
        return Ok(());
    }
    let map = shared_memory(storage.nbytes())?;
    storage.move_into(map);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_and_private_file_maps() {
        let dir = std::env::temp_dir().join(format!("tensh-mapped-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("data.bin");
        let p = path.to_str().unwrap();
        let s = from_file(p, true, 8).unwrap();
        s.with_bytes_mut(|b| b.fill(7));
        assert_eq!(std::fs::read(&path).unwrap(), vec![7; 8]);
        let r = from_file(p, false, 8).unwrap();
        r.with_bytes_mut(|b| b.fill(1));
        assert_eq!(std::fs::read(&path).unwrap(), vec![7; 8]);
        assert!(from_file(p, false, 9).is_err());
        assert!(from_file(dir.join("missing").to_str().unwrap(), false, 1).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn temp_file(tag: &str, nbytes: usize) -> (std::path::PathBuf, String) {
        let dir = std::env::temp_dir().join(format!("tensh-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("data.bin");
        let bytes: Vec<u8> = (0..nbytes).map(|i| (i % 251) as u8).collect();
        std::fs::write(&path, bytes).unwrap();
        let p = path.to_str().unwrap().to_string();
        (dir, p)
    }

    #[test]
    fn two_maps_of_one_file_share_memory_and_copy_as_memmove() {
        use crate::core::dtype::DType;
        use crate::core::layout::Layout;
        use crate::core::tensor::Tensor;
        const N: usize = 8192;
        let (dir, p) = temp_file("alias", N);
        let (a, b) = (
            from_file(&p, true, N).unwrap(),
            from_file(&p, true, N).unwrap(),
        );
        let private = from_file(&p, false, N).unwrap();
        let other = Storage::from_vec(vec![0; N]);
        assert!(a.shares_memory(&b) && b.shares_memory(&private));
        assert!(!a.shares_memory(&other));
        // b[1:] = a[:-1]: the same file bytes, one position apart, through two maps. A
        // forward copy between the two slices would smear the first bytes over the rest.
        let n = N as i64 - 1;
        let src = Tensor::from_parts(a.clone(), DType::UInt8, Layout::contiguous(vec![n]));
        let dst = Tensor::from_parts(b.clone(), DType::UInt8, Layout::contiguous(vec![n]));
        dst.set_layout(Layout {
            sizes: smallvec::smallvec![n],
            strides: smallvec::smallvec![1],
            offset: 1,
        });
        crate::core::copy::copy_(&dst, &src).unwrap();
        let expected: Vec<u8> = std::iter::once(0)
            .chain((0..N - 1).map(|i| (i % 251) as u8))
            .collect();
        assert_eq!(std::fs::read(&p).unwrap(), expected);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_truncated_under_its_map_is_refused_not_a_sigbus() {
        use crate::core::dtype::DType;
        use crate::core::layout::Layout;
        use crate::core::tensor::Tensor;
        let (dir, p) = temp_file("truncated", 64);
        for shared in [true, false] {
            std::fs::write(&p, vec![1u8; 8192]).unwrap();
            let s = from_file(&p, shared, 8192).unwrap();
            let t = Tensor::from_parts(s.clone(), DType::UInt8, Layout::contiguous(vec![8192]));
            assert_eq!(crate::core::copy::to_scalars(&t).unwrap().len(), 8192);
            std::fs::OpenOptions::new()
                .write(true)
                .open(&p)
                .unwrap()
                .set_len(0)
                .unwrap();
            assert!(crate::core::copy::to_scalars(&t).is_err());
            assert!(crate::core::copy::fill_(&t, crate::core::scalar::Scalar::Int(3)).is_err());
            assert_eq!(s.nbytes(), 0);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn sparse_multi_gib_file_maps_without_reading() {
        let dir = std::env::temp_dir().join(format!("tensh-sparse-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big.bin");
        let nbytes = 8usize << 30;
        let f = std::fs::File::create(&path).unwrap();
        f.set_len(nbytes as u64).unwrap();
        let s = from_file(path.to_str().unwrap(), false, nbytes).unwrap();
        assert_eq!(s.nbytes(), nbytes);
        assert_eq!(s.byte(nbytes - 1), Some(0));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn empty_storages_stay_empty_when_shared() {
        let s = Storage::from_vec(vec![]);
        share_memory(&s).unwrap();
        assert_eq!(s.nbytes(), 0);
        s.resize(3).unwrap();
        assert_eq!(s.to_vec(), vec![0, 0, 0]);
    }

    #[test]
    fn share_memory_keeps_bytes() {
        let s = Storage::from_vec(vec![1, 2, 3]);
        share_memory(&s).unwrap();
        assert!(s.is_shared());
        assert_eq!(s.to_vec(), vec![1, 2, 3]);
    }
}
