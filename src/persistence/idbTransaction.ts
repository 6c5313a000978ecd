/** A transaction's end as a promise: resolved once committed, rejected with its error when it fails or is aborted. */
export const completion = (tx: IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('the write failed'));
    tx.onabort = () => reject(tx.error ?? new Error('the write was aborted'));
  });
