// Folders of a workspace's projects (spec 000 §7 Workspaces): nested; an entry either names a folder or wraps a
// project (moving it into a folder). "Please provide a folder name" when a new folder has none.
import type { common, projects } from '@fieldwork/proto';
import { problems } from '@fieldwork/service-kit';
import { ProjectStore, type FolderRow } from '../store/project.store.js';
import { AccessResolver } from './access.js';
import type { Ctx, ProjectsDeps } from './deps.js';

export const FOLDER_NAME_REQUIRED = 'Please provide a folder name';

const toFolder = (f: FolderRow): projects.FolderItem => ({
  type: 'folder',
  id: f.id,
  name: f.name,
  folder: f.parent_id ?? 0,
  project: 0,
  folder_id: f.id,
});

export class FolderService {
  private readonly store: ProjectStore;

  constructor(
    deps: ProjectsDeps,
    private readonly access: AccessResolver,
  ) {
    this.store = new ProjectStore(deps.sql);
  }

  async list(req: projects.OrganizationRef, ctx: Ctx): Promise<projects.FolderList> {
    const ws = await this.access.workspace(req.caller, req.organization_id, ctx);
    return { results: (await this.store.folders(ws.organizationId)).map(toFolder) };
  }

  async create(req: projects.CreateFolderRequest, ctx: Ctx): Promise<projects.FolderItem> {
    const ws = await this.access.workspace(req.caller, req.organization_id, ctx);
    if (!ws.can('projects')) throw problems.forbidden();
    const parent = await this.parent(ws.organizationId, req.folder);
    if (req.project > 0) {
      // Wrapping a project: it moves into the folder; no name needed.
      const a = await this.access.project(req.caller, req.project, ctx);
      if (a.organizationId !== ws.organizationId) throw problems.invalidProjectId();
      const moved = await this.store.update(a.project.id, { folder_id: parent?.id ?? null });
      return {
        type: 'project',
        id: moved.id,
        name: moved.name,
        folder: parent?.id ?? 0,
        project: moved.id,
        folder_id: parent?.id ?? 0,
      };
    }
    const name = req.name.trim();
    if (name === '') throw problems.invalidFields({ name: [FOLDER_NAME_REQUIRED] });
    if (name.length > 255)
      throw problems.invalidFields({ name: ['Ensure this field has no more than 255 characters.'] });
    return toFolder(await this.store.createFolder(ws.organizationId, name, parent?.id ?? null));
  }

  async update(req: projects.UpdateFolderRequest, ctx: Ctx): Promise<projects.FolderItem> {
    const ws = await this.access.workspace(req.caller, req.organization_id, ctx);
    if (!ws.can('projects')) throw problems.forbidden();
    const folder = await this.folder(ws.organizationId, req.folder_id);
    const name = req.name?.trim();
    if (name === '') throw problems.invalidFields({ name: [FOLDER_NAME_REQUIRED] });
    let parentId: number | null | undefined;
    if (req.folder !== undefined) {
      const parent = await this.parent(ws.organizationId, req.folder);
      if (parent && (await this.isWithin(ws.organizationId, parent.id, folder.id))) {
        throw problems.invalidFields({ folder: ['A folder cannot be moved into itself or one of its subfolders.'] });
      }
      parentId = parent?.id ?? null;
    }
    return toFolder(
      await this.store.updateFolder(folder.id, {
        ...(name ? { name } : {}),
        ...(parentId !== undefined ? { parent_id: parentId } : {}),
      }),
    );
  }

  async delete(req: projects.FolderRef, ctx: Ctx): Promise<common.Empty> {
    const ws = await this.access.workspace(req.caller, req.organization_id, ctx);
    if (!ws.can('projects')) throw problems.forbidden();
    await this.store.deleteFolder(await this.folder(ws.organizationId, req.folder_id));
    return {};
  }

  private async folder(organizationId: number, id: number): Promise<FolderRow> {
    const folder = id > 0 ? await this.store.folder(organizationId, id) : undefined;
    if (!folder) throw problems.notFound();
    return folder;
  }

  private async parent(organizationId: number, id: number): Promise<FolderRow | undefined> {
    if (id <= 0) return undefined;
    const folder = await this.store.folder(organizationId, id);
    if (!folder) throw problems.invalidFields({ folder: ['No folder of this workspace has this id.'] });
    return folder;
  }

  /** Is `candidate` the folder `ancestor` or below it? */
  private async isWithin(organizationId: number, candidate: number, ancestor: number): Promise<boolean> {
    const all = new Map((await this.store.folders(organizationId)).map((f) => [f.id, f]));
    for (let id: number | null = candidate, depth = 0; id !== null && depth < 1000; depth++) {
      if (id === ancestor) return true;
      id = all.get(id)?.parent_id ?? null;
    }
    return false;
  }
}
