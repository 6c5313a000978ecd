import { newGraphFile } from '../hooks/library.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { FileNameForm } from './FileNameForm.tsx';

/** New graph under `loopscope open`: a blank graph in a new file of the folder, named first, then opened. */
export function NewFileForm({ onClose }: { onClose: () => void }) {
  return (
    <FileNameForm
      initial="new-graph.json"
      action="Create"
      onCancel={onClose}
      onSubmit={async (path) => {
        await newGraphFile(path);
        onClose();
      }}
    />
  );
}

export function NewFileDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog title="New graph file" onClose={onClose}>
      <NewFileForm onClose={onClose} />
    </Dialog>
  );
}
