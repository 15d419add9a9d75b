//! Writing numbered PNG frames to a folder, never through a symbolic link a downloaded folder
//! could hold ([`crate::output`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use image::RgbImage;
use thiserror::Error;

use crate::output::{OutputDir, OutputError};

/// Why a frame could not be written.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum RenderError {
    /// The output folder could not be created or opened.
    #[error("cannot open the frame folder: {source}")]
    CreateDir {
        /// The folder.
        path: PathBuf,
        /// The cause.
        source: OutputError,
    },
    /// A frame could not be encoded.
    #[error("cannot write frame {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: image::ImageError,
    },
    /// A frame's file could not be made or put in place.
    #[error("cannot write a frame: {source}")]
    Save {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: OutputError,
    },
}

/// Writes `frame_00000.png`, `frame_00001.png`, … into one folder.
#[derive(Debug)]
pub struct FrameWriter {
    dir: OutputDir,
    next: u32,
}

impl FrameWriter {
    /// A writer into `dir`, created if missing.
    pub fn new(dir: impl AsRef<Path>) -> Result<Self, RenderError> {
        let path = dir.as_ref();
        let dir =
            OutputDir::create(path).map_err(|source| RenderError::CreateDir { path: path.to_path_buf(), source })?;
        Ok(FrameWriter { dir, next: 0 })
    }

    /// How many frames have been written.
    pub fn count(&self) -> u32 {
        self.next
    }

    /// Writes the next frame and returns its path.
    pub fn write(&mut self, image: &RgbImage) -> Result<PathBuf, RenderError> {
        let name = format!("frame_{:05}.png", self.next);
        let path = self.dir.path().join(&name);
        let save = |source| RenderError::Save { path: path.clone(), source };
        let mut out = std::io::BufWriter::new(self.dir.create_file(&name).map_err(save)?);
        image
            .write_with_encoder(image::codecs::png::PngEncoder::new(&mut out))
            .map_err(|source| RenderError::Write { path: path.clone(), source })?;
        out.flush().map_err(|e| RenderError::Save {
            path: path.clone(),
            source: OutputError::Io { path: path.clone(), source: e },
        })?;
        let file =
            out.into_inner().map_err(|e| save(OutputError::Io { path: path.clone(), source: e.into_error() }))?;
        file.finish().map_err(save)?;
        self.next += 1;
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_numbered_pngs_that_read_back() {
        let dir = tempfile::Builder::new().prefix("tactica-render-").tempdir().unwrap().keep();
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
        let file = tempfile::Builder::new().prefix("tactica-render-file-").tempdir().unwrap().keep().join("file");
        std::fs::write(&file, b"x").unwrap();
        let err = FrameWriter::new(file.join("sub")).unwrap_err();
        assert!(matches!(err, RenderError::CreateDir { .. }), "{err}");
        std::fs::remove_file(&file).unwrap();
    }
}
