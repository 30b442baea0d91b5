// ProjectsService over gRPC: each call goes to one use case.
import { projects } from '@fieldwork/proto';
import { implement, type AsyncHandlers, type GrpcServiceRegistration, type Logger } from '@fieldwork/service-kit';
import type { BulkUserService } from '../service/bulk-user.service.js';
import type { AdvancedResultService } from '../service/advanced-result.service.js';
import type { CollectionService } from '../service/collection.service.js';
import type { FolderService } from '../service/folder.service.js';
import type { ProjectService } from '../service/project.service.js';
import type { ProjectUserService } from '../service/project-user.service.js';
import type { PurgeService } from '../service/purge.service.js';
import type { SettingsService } from '../service/settings.service.js';
import type { StructureService } from '../service/structure.service.js';

export interface ProjectsServices {
  projects: ProjectService;
  settings: SettingsService;
  folders: FolderService;
  structure: StructureService;
  users: ProjectUserService;
  bulk: BulkUserService;
  collection: CollectionService;
  advanced: AdvancedResultService;
  purge: PurgeService;
}

export function projectsGrpc(s: ProjectsServices, log: Logger): GrpcServiceRegistration {
  const handlers: AsyncHandlers<projects.ProjectsServiceServer> = {
    createProject: (req, ctx) => s.projects.create(req, ctx),
    listProjects: (req, ctx) => s.projects.list(req, ctx),
    getProject: (req, ctx) => s.projects.get(req, ctx),
    updateProject: (req, ctx) => s.projects.update(req, ctx),
    setEntity: (req, ctx) => s.projects.setEntity(req, ctx),
    duplicateProject: (req, ctx) => s.projects.duplicate(req, ctx),
    projectHome: (req, ctx) => s.projects.home(req, ctx),
    summaryBySite: (req, ctx) => s.projects.summaryBySite(req, ctx),
    listAdvancedProjects: (req, ctx) => s.projects.listAdvanced(req, ctx),
    listReferenceProjects: (req, ctx) => s.projects.listReferenceProjects(req, ctx),
    getAccess: (req, ctx) => s.projects.getAccess(req, ctx),
    listAdvancedResults: (req, ctx) => s.advanced.list(req, ctx),
    saveAdvancedResult: (req, ctx) => s.advanced.save(req, ctx),
    deleteAdvancedResult: async (req, ctx) => {
      await s.advanced.delete(req, ctx);
      return {};
    },
    setStatus: (req, ctx) => s.settings.setStatus(req, ctx),
    setType: (req, ctx) => s.settings.setType(req, ctx),
    setPeriod: (req, ctx) => s.settings.setPeriod(req, ctx),
    setHierarchy: (req, ctx) => s.settings.setHierarchy(req, ctx),
    setTimingColumn: (req, ctx) => s.settings.setTimingColumn(req, ctx),
    setAggregator: (req, ctx) => s.settings.setAggregator(req, ctx),
    uploadFile: (req, ctx) => s.collection.uploadFile(req, ctx),
    getFile: (req, ctx) => s.collection.getFile(req, ctx),
    resolveCollectionToken: (req) => s.collection.resolveToken(req),
    checkPlacement: (req) => s.structure.checkPlacement(req),
    uploadLogo: (req, ctx) => s.collection.uploadLogo(req, ctx),
    createSurvey: (req, ctx) => s.collection.createSurvey(req, ctx),
    getSurvey: (req, ctx) => s.collection.getSurvey(req, ctx),
    listSurveys: (req, ctx) => s.collection.listSurveys(req, ctx),
    revokeSurvey: (req, ctx) => s.collection.revokeSurvey(req, ctx),
    expireSurvey: (req, ctx) => s.collection.expireSurvey(req, ctx),
    listReferences: (req, ctx) => s.collection.listReferences(req, ctx),
    addReference: (req, ctx) => s.collection.addReference(req, ctx),
    listFolders: (req, ctx) => s.folders.list(req, ctx),
    createFolder: (req, ctx) => s.folders.create(req, ctx),
    updateFolder: (req, ctx) => s.folders.update(req, ctx),
    deleteFolder: (req, ctx) => s.folders.delete(req, ctx),
    createSite: (req, ctx) => s.structure.createSite(req, ctx),
    updateSite: (req, ctx) => s.structure.updateSite(req, ctx),
    setSiteActive: (req, ctx) => s.structure.setSiteActive(req, ctx),
    deleteSite: (req, ctx) => s.structure.deleteSite(req, ctx),
    createGroup: (req, ctx) => s.structure.createGroup(req, ctx),
    updateGroup: (req, ctx) => s.structure.updateGroup(req, ctx),
    deleteGroup: (req, ctx) => s.structure.deleteGroup(req, ctx),
    createTeam: (req, ctx) => s.structure.createTeam(req, ctx),
    updateTeam: (req, ctx) => s.structure.updateTeam(req, ctx),
    deleteTeam: (req, ctx) => s.structure.deleteTeam(req, ctx),
    listProjectUsers: (req, ctx) => s.users.list(req, ctx),
    addProjectUser: (req, ctx) => s.users.add(req, ctx),
    updateProjectUser: (req, ctx) => s.users.update(req, ctx),
    deleteProjectUser: (req, ctx) => s.users.remove(req, ctx),
    setPermissions: (req, ctx) => s.users.setPermissions(req, ctx),
    bulkAddProjectUsers: (req, ctx) => s.bulk.addList(req, ctx),
    bulkUploadProjectUsers: (req, ctx) => s.bulk.upload(req, ctx),
    listPurges: (req, ctx) => s.purge.list(req, ctx),
    getPurge: (req, ctx) => s.purge.get(req, ctx),
    startPurge: (req, ctx) => s.purge.start(req, ctx),
  };
  return {
    name: 'fieldwork.projects.v1.ProjectsService',
    definition: projects.ProjectsServiceService,
    implementation: implement(projects.ProjectsServiceService, handlers, log),
  };
}
