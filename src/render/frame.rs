//! Writing numbered PNG frames to a folder.

use std::path::{Path, PathBuf};

use image::RgbImage;
use thiserror::Error;

/// Why a frame could not be written.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum RenderError {
    /// The output folder could not be created.
    #[error("cannot create the frame folder {path}: {source}")]
    CreateDir {
        /// The folder.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A frame could not be encoded or written.
    #[error("cannot write frame {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: image::ImageError,
    },
}

/// Writes `frame_00000.png`, `frame_00001.png`, … into one folder.
#[derive(Debug, Clone)]
pub struct FrameWriter {
    dir: PathBuf,
    next: u32,
}

impl FrameWriter {
    /// A writer into `dir`, created if missing.
    pub fn new(dir: impl AsRef<Path>) -> Result<Self, RenderError> {
        let dir = dir.as_ref().to_path_buf();
        std::fs::create_dir_all(&dir).map_err(|source| RenderError::CreateDir { path: dir.clone(), source })?;
        Ok(FrameWriter { dir, next: 0 })
    }

    /// How many frames have been written.
    pub fn count(&self) -> u32 {
        self.next
    }

    /// Writes the next frame and returns its path.
    pub fn write(&mut self, image: &RgbImage) -> Result<PathBuf, RenderError> {
        let path = self.dir.join(format!("frame_{:05}.png", self.next));
        image.save(&path).map_err(|source| RenderError::Write { path: path.clone(), source })?;
        self.next += 1;
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_numbered_pngs_that_read_back() {
        let dir = std::env::temp_dir().join(format!("tactica-render-{}", std::process::id()));
        let mut w = FrameWriter::new(&dir).unwrap();
        let mut img = RgbImage::new(3, 2);
        img.put_pixel(2, 1, image::Rgb([9, 8, 7]));
        let first = w.write(&img).unwrap();
        let second = w.write(&img).unwrap();
        assert_eq!(first.file_name().unwrap(), "frame_00000.png");
        assert_eq!(second.file_name().unwrap(), "frame_00001.png");
        let back = image::open(&second).unwrap().to_rgb8();
        assert_eq!(back.get_pixel(2, 1).0, [9, 8, 7]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_unwritable_folder_is_an_error() {
        let file = std::env::temp_dir().join(format!("tactica-render-file-{}", std::process::id()));
        std::fs::write(&file, b"x").unwrap();
        let err = FrameWriter::new(file.join("sub")).unwrap_err();
        assert!(matches!(err, RenderError::CreateDir { .. }), "{err}");
        std::fs::remove_file(&file).unwrap();
    }
}
