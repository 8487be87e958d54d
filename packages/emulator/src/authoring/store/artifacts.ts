/** Stored artifacts (screenshots, logs of runs), kept as files so that downloads stream them. */
import path from 'node:path';
import { notFound } from '../errors.ts';
import type { ArtifactRecord } from '../model.ts';
import { AuthoringPart } from './part.ts';

export class Artifacts extends AuthoringPart {
  /** The record and the path of its file. */
  get(id: string): { artifact: ArtifactRecord; file: string } {
    const wanted = id.toLowerCase();
    const artifact = this.state.data.artifacts.find((candidate) => candidate.id === wanted);
    if (!artifact) throw notFound(`artifact ${id} not found`);
    return { artifact, file: path.join(this.state.filesDir, artifact.file) };
  }
}
