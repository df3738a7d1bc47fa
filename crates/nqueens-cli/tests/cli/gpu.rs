//! `count --device` and `nqueens devices`. Without the `gpu` feature, every GPU request is a
//! usage error that says how to build one; with it (`scripts/test-gpu.sh`), the GPU kernel
//! counts on whatever adapter there is (Mesa's software Vulkan driver in CI), and checkpoints
//! pass between GPU and CPU runs.

use crate::util::*;

#[test]
fn what_only_the_counter_counts_is_refused_on_a_device() {
    assert_usage_error(
        &["count", "8", "--device", "gpu", "--fix", "1:1"],
        "--device counts whole boards only",
    );
    assert_usage_error(
        &["count", "8", "--device", "gpu", "--method", "backtrack"],
        "--device counts with the counter method, not backtrack",
    );
    assert_usage_error(
        &["count", "33", "--device", "gpu"],
        "--device counts boards up to n = 32; n = 33 is too large",
    );
    assert_usage_error(
        &["count", "8", "--gpu-index", "0"],
        "--gpu-index picks a GPU: it needs --device gpu (or auto)",
    );
    assert_usage_error(
        &["count", "8", "--device", "tpu"],
        "invalid value 'tpu' for '--device <WHERE>'",
    );
}

#[cfg(not(feature = "gpu"))]
#[test]
fn without_gpu_support_a_gpu_is_refused_and_auto_counts_on_the_cpu() {
    assert_usage_error(
        &["count", "8", "--device", "gpu"],
        "this nqueens was built without GPU support: build it with `cargo build --release --features gpu`",
    );
    assert_usage_error(&["devices"], "built without GPU support");
    let (code, stdout, stderr) = run(&["count", "10", "--device", "auto"]);
    assert_eq!((code, stdout.as_str()), (0, "724\n"), "{stderr}");
}

#[cfg(feature = "gpu")]
mod on_a_gpu {
    use std::process::{Command as StdCommand, Stdio};
    use std::time::{Duration, Instant};

    use nqueens_solver::instances::oeis;

    use crate::util::*;

    #[test]
    fn the_gpu_counts_the_published_totals() {
        let (code, stdout, stderr) = run(&["count", "12", "--device", "gpu", "--stats"]);
        assert_eq!((code, stdout.as_str()), (0, "14200\n"), "{stderr}");
        assert!(stderr.contains("method=counter "), "{stderr}");
        assert!(stderr.contains("device="), "{stderr}");
        // The device's own figures: the rate, the host's split and the tuning in force.
        for figure in [
            "nodes_per_s=",
            "sub_boards=",
            "split_per_s=",
            "gpu_wait=",
            "steps_per_node=",
            "tuning=rows=",
        ] {
            assert!(stderr.contains(figure), "{figure}: {stderr}");
        }
        let (code, stdout, stderr) = run(&["count", "14", "--device", "gpu", "--unique"]);
        assert_eq!((code, stdout.as_str()), (0, "45752\n"), "{stderr}");
        // Nothing but the count and the stats: no driver chatter on stderr.
        assert_eq!(stderr, "");
    }

    #[test]
    fn the_tuning_variables_choose_the_kernel_and_bad_values_are_usage_errors() {
        let out = nqueens()
            .args(["count", "11", "--device", "gpu", "--stats"])
            .env("NQUEENS_GPU_FRAME", "queen")
            .env("NQUEENS_GPU_STACK", "workgroup")
            .env("NQUEENS_GPU_WORKGROUP", "128")
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.stdout, b"2680\n", "{stderr}");
        assert!(
            stderr.contains("workgroup=128,frame=queen,stack=workgroup"),
            "{stderr}"
        );
        let out = nqueens()
            .args(["count", "8", "--device", "gpu"])
            .env("NQUEENS_GPU_WORKGROUP", "100")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            String::from_utf8(out.stderr).unwrap(),
            "error: NQUEENS_GPU_WORKGROUP=100: expected 32, 64, 128 or 256\n"
        );
    }

    #[test]
    fn devices_lists_the_adapter_the_count_uses() {
        let (code, stdout, stderr) = run(&["devices"]);
        assert_eq!(code, 0, "{stderr}");
        let mut lines = stdout.lines();
        assert!(lines.next().unwrap().starts_with("index  kind"));
        let first = lines.next().expect("one adapter at least");
        assert!(first.starts_with("0 "), "{first}");
        let (code, stdout, stderr) = run(&["count", "9", "--device", "gpu", "--gpu-index", "0"]);
        assert_eq!((code, stdout.as_str()), (0, "352\n"), "{stderr}");
        assert_usage_error(
            &["count", "9", "--device", "gpu", "--gpu-index", "99"],
            "there is no GPU 99: this machine has",
        );
    }

    #[test]
    fn no_adapter_is_a_usage_error_never_a_cpu_count() {
        // No Vulkan driver to be found.
        for args in [&["count", "8", "--device", "gpu"][..], &["devices"]] {
            let out = nqueens()
                .args(args)
                .env("VK_ICD_FILENAMES", "/nonexistent.json")
                .env("VK_DRIVER_FILES", "/nonexistent.json")
                .output()
                .unwrap();
            let stderr = String::from_utf8(out.stderr).unwrap();
            assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(out.stdout.is_empty(), "{args:?}");
            assert!(
                stderr.starts_with("error: no GPU adapter found")
                    && stderr.contains("mesa-vulkan-drivers"),
                "{args:?}: {stderr}"
            );
        }
    }

    #[test]
    fn a_gpu_count_stopped_by_ctrl_c_finishes_on_the_cpu() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("count16.ckpt");
        let p = path.display().to_string();
        let child = StdCommand::new(assert_cmd::cargo::cargo_bin("nqueens"))
            .args(["count", "16", "--device", "gpu", "--checkpoint", &p])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        while records(&path) < 50 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        // SAFETY: kill(2) with the pid of our own child and a plain signal number.
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(130), "{stderr}");
        let stderr = after_opening(&stderr);
        assert!(
            stderr.starts_with("interrupted: ") && stderr.contains("tasks saved in"),
            "{stderr}"
        );
        let saved = records(&path);
        assert!(saved >= 50, "{saved}");
        let (code, stdout, stderr) = run(&["count", "16", "--checkpoint", &p, "--stats"]);
        assert_eq!(
            (code, stdout),
            (0, format!("{}\n", oeis::total(16).unwrap())),
            "{stderr}"
        );
        // Each task once: the CPU did exactly what the GPU left.
        let tasks_run: usize = stderr
            .split_whitespace()
            .find_map(|w| w.strip_prefix("tasks="))
            .and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("no tasks= in {stderr}"));
        assert!(tasks_run > 0, "the GPU finished before Ctrl-C");
        assert_eq!(tasks_run + saved, records(&path));
        // And back: a finished CPU checkpoint read by a GPU run redoes nothing.
        let (code, stdout, stderr) = run(&[
            "count",
            "16",
            "--device",
            "gpu",
            "--unique",
            "--checkpoint",
            &p,
            "--stats",
        ]);
        assert_eq!(
            (code, stdout),
            (0, format!("{}\n", oeis::unique(16).unwrap())),
            "{stderr}"
        );
        assert!(stderr.contains(" tasks=0"), "{stderr}");
    }

    #[test]
    fn a_gpu_count_stopped_at_its_time_limit_resumes_on_the_gpu() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("count15.ckpt").display().to_string();
        let args = ["count", "15", "--device", "gpu", "--checkpoint", &p];
        let (code, _, stderr) = run(&[&args[..], &["--time-limit", "1"]].concat());
        assert_eq!(code, 3, "{stderr}");
        assert!(stderr.contains("time limit"), "{stderr}");
        let (code, stdout, stderr) = run(&args);
        assert_eq!((code, stdout.as_str()), (0, "2279184\n"), "{stderr}");
    }

    /// `nqueens ARGS` with `NQUEENS_GPU_KERNEL=kernel`: exit status, stdout, stderr.
    fn with_kernel(kernel: &str, args: &[&str]) -> (Option<i32>, String, String) {
        let out = nqueens()
            .args(args)
            .env("NQUEENS_GPU_KERNEL", kernel)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    }

    #[test]
    fn the_constellation_kernel_counts_the_published_totals() {
        for n in 1..=13u32 {
            let n_text = n.to_string();
            let (code, stdout, stderr) =
                with_kernel("constellations", &["count", &n_text, "--device", "gpu"]);
            assert_eq!(
                (code, stdout),
                (Some(0), format!("{}\n", oeis::total(n).unwrap())),
                "n = {n}: {stderr}"
            );
            assert_eq!(stderr, "", "n = {n}");
        }
        // --stats names the kernel and its figures; -o writes the total.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("total");
        let p = path.display().to_string();
        let (code, stdout, stderr) = with_kernel(
            "constellations",
            &["count", "12", "--device", "gpu", "--stats", "-o", &p],
        );
        assert_eq!((code, stdout.as_str()), (Some(0), ""), "{stderr}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "14200\n");
        for figure in [
            "device=",
            "kernel=constellations",
            "constellations=",
            "starts=",
            "steps=",
            // How long the GPU waited for the host's cut ("unknown" without timestamps).
            "gpu_wait=",
            "overlapped=",
            "tuning=rows=",
        ] {
            assert!(stderr.contains(figure), "{figure}: {stderr}");
        }
        // The default kernel, named.
        let (code, stdout, stderr) =
            with_kernel("subboards", &["count", "10", "--device", "gpu", "--stats"]);
        assert_eq!((code, stdout.as_str()), (Some(0), "724\n"), "{stderr}");
        assert!(stderr.contains("method=counter "), "{stderr}");
        assert!(stderr.contains("kernel=subboards"), "{stderr}");
    }

    #[test]
    fn what_the_constellation_kernel_cannot_do_is_refused_naming_the_default() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("c.ckpt").display().to_string();
        let refusal = |what: &str| {
            format!(
                "error: NQUEENS_GPU_KERNEL=constellations counts whole-board totals only, not {what}: unset it for the default kernel (subboards), which does\n"
            )
        };
        for (extra, what) in [
            (&["--unique"][..], "unique solutions (--unique)"),
            (&["--checkpoint", &p], "a resumable count (--checkpoint)"),
            (&["--shard", "1/2"], "a shard (--shard)"),
            (&["--progress"], "a progress line (--progress)"),
            (&["--time-limit", "60"], "a time limit (--time-limit)"),
        ] {
            let args = [&["count", "10", "--device", "gpu"][..], extra].concat();
            let (code, stdout, stderr) = with_kernel("constellations", &args);
            assert_eq!(
                (code, stdout.as_str()),
                (Some(2), ""),
                "{extra:?}: {stderr}"
            );
            assert_eq!(stderr, refusal(what), "{extra:?}");
        }
        // No checkpoint was started.
        assert!(!std::path::Path::new(&p).exists());
        // Fixed queens are refused on every device, before one is opened.
        let (code, _, stderr) = with_kernel(
            "constellations",
            &["count", "8", "--device", "gpu", "--fix", "1:1"],
        );
        assert_eq!(code, Some(2), "{stderr}");
        assert!(
            stderr.starts_with("error: --device counts whole boards only"),
            "{stderr}"
        );
        // A bad value, as every tuning variable's.
        let (code, stdout, stderr) = with_kernel("classes", &["count", "8", "--device", "gpu"]);
        assert_eq!((code, stdout.as_str()), (Some(2), ""));
        assert_eq!(
            stderr,
            "error: NQUEENS_GPU_KERNEL=classes: expected subboards or constellations\n"
        );
    }

    #[test]
    fn a_constellation_count_stops_at_ctrl_c() {
        // n = 18 takes many minutes on a software driver: the count is stopped, not finished.
        let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("nqueens"))
            .args(["count", "18", "--device", "gpu"])
            .env("NQUEENS_GPU_KERNEL", "constellations")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_secs(3));
        // SAFETY: kill(2) with the pid of our own child and a plain signal number.
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
        // A guard against a hang, not a timing: a count that ignored the stop runs for minutes.
        let deadline = Instant::now() + Duration::from_secs(60);
        while child.try_wait().unwrap().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            panic!("the constellation count did not stop at Ctrl-C");
        }
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(130), "{stderr}");
        assert!(out.stdout.is_empty());
        assert!(
            stderr.starts_with("interrupted after ")
                && stderr
                    .contains("no checkpoint, nothing saved (the constellation kernel keeps none"),
            "{stderr}"
        );
    }
}
