/**
 * The graph library as the editor uses it: its list, the open file's notices, what the person does
 * with them. src/hooks/ is the editor's and debugger's one way into src/persistence/ and
 * src/network/ (.oxlintrc.json); each of its modules stands for one module there, so that what a
 * panel imports loads nothing more than before.
 */
export {
  fileLibrary,
  graphFilePath,
  keepMine,
  loadFromDisk,
  newGraphFile,
  openCopyOfGraph,
  refreshLibrary,
  removeFromLibrary,
  saveAsFile,
  takeOverGraph,
  useFileNotice,
  useGraphTab,
  useLibrary,
} from '../persistence/libraryActions.ts';
