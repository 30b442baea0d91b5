// The demo workspace of the single-machine mode (never in the Helm chart): user, workspace and two projects.
import { auth, common, projects } from '@fieldwork/proto';
import { createClient } from '@fieldwork/service-kit';

export interface DemoSettings {
  username: string;
  email: string;
  password: string;
  workspace: string;
}

export const DEMO_PROJECTS = [
  {
    name: 'Household Survey',
    description: 'Demo: a household census of the district.',
    color: '5da83d',
    icon: 'place',
    lat: -1.2921,
    lng: 36.8219,
  },
  {
    name: 'Water Points',
    description: 'Demo: functionality of water points.',
    color: '1e88e5',
    icon: 'person_pin_circle',
    lat: -0.0917,
    lng: 34.768,
  },
];

/** Creates what is missing and leaves what exists (an existing user keeps its password). */
export async function seedDemo(
  addresses: { auth: string; projects: string; secret: string },
  demo: DemoSettings,
): Promise<{ userId: number; organizationId: number; projectsCreated: number }> {
  const authClient = createClient(auth.AuthServiceClient, addresses.auth, { secret: addresses.secret });
  const projectsClient = createClient(projects.ProjectsServiceClient, addresses.projects, {
    secret: addresses.secret,
  });
  try {
    const user = await authClient.adminCreateUser({
      email: demo.email,
      password: demo.password,
      username: demo.username,
      first_name: 'Demo',
      last_name: 'User',
      is_staff: false,
      is_superuser: false,
      if_not_exists: true,
    });
    const org = await authClient.adminCreateOrganization({
      name: demo.workspace,
      description: 'A workspace to try Fieldwork with.',
      owner_username: demo.username,
      if_not_exists: true,
    });
    const caller = common.Caller.fromPartial({ user_id: user.id, organization_id: org.id });
    const existing = await projectsClient.listProjects({ caller, organization_id: org.id });
    let projectsCreated = 0;
    if (existing.results.length === 0) {
      for (const p of DEMO_PROJECTS) {
        await projectsClient.createProject({
          caller,
          organization_pk: org.id,
          name: p.name,
          description: p.description,
          frontend_color: p.color,
          frontend_icon: p.icon,
          geotag: { latitude: p.lat, longitude: p.lng },
          geotag_given: true,
          folder_id: 0,
          logo: '',
        });
        projectsCreated++;
      }
    }
    return { userId: user.id, organizationId: org.id, projectsCreated };
  } finally {
    authClient.close();
    projectsClient.close();
  }
}
