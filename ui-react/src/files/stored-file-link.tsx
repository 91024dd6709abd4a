import { useT } from '../i18n.js';
import { fileKind } from './file-kind.js';
import { FileIcon } from './file-icons.js';
import { useBlobUrl, useStoredFileInfo } from './stored-file.js';

/**
 * A File or Image field's value where there is no record form to upload with (a list cell in
 * edit mode): the stored file as a link to its signed address, an image with a small thumbnail.
 * Files are chosen on the record form, where they are uploaded before the record is saved.
 */
export const StoredFileLink = ({ id, name, label }: { id: string; name: string; label: string }) => {
  const t = useT();
  const url = useBlobUrl(name);
  const info = useStoredFileInfo(url);
  if (!name) {
    return (
      <span id={id} className="muted small">
        {t('FilesNoFile')}
      </span>
    );
  }
  const shownName = info?.fileName ?? name;
  const image = fileKind(shownName, info?.contentType) === 'image';
  return (
    <a id={id} className="stored-file-link" href={url} target="_blank" rel="noreferrer" aria-label={`${label}: ${shownName}`}>
      {image ? <img src={url} alt="" loading="lazy" /> : <FileIcon name="file" size={16} />}
      <span className="stored-file-name">{shownName}</span>
    </a>
  );
};
