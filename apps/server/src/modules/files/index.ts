// The files module's face: what the rest of the server imports from it (eslint.config.js forbids reaching past it).
export { registerFileRoutes } from './files.routes';
export { fileUrl, FilesService, recordStoredFiles } from './files.service';
