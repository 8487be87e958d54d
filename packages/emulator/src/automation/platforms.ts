/** The platforms `/info/platforms/:automation_api` lists: a small, stable sample of the real list. */

interface Platform {
  api_name: string;
  long_name: string;
  short_version: string;
  long_version: string;
  latest_stable_version: string;
  automation_backend: string;
  os: string;
  device?: string;
  recommended_backend_version?: string;
}

const desktop = (api: string, name: string, version: string, os: string): Platform => ({
  api_name: api,
  long_name: name,
  short_version: version,
  long_version: `${version}.0.`,
  latest_stable_version: version,
  automation_backend: 'webdriver',
  os,
});

const WEBDRIVER: Platform[] = [
  desktop('chrome', 'Google Chrome', '130', 'Windows 2022'),
  desktop('chrome', 'Google Chrome', '130', 'Mac 14'),
  desktop('firefox', 'Firefox', '128', 'Windows 2022'),
  desktop('firefox', 'Firefox', '128', 'Linux'),
  desktop('MicrosoftEdge', 'Microsoft Edge', '130', 'Windows 2022'),
  desktop('safari', 'Safari', '17', 'Mac 14'),
];

const APPIUM: Platform[] = [
  {
    api_name: 'iphone',
    long_name: 'iPhone Simulator',
    short_version: '17.5',
    long_version: '17.5.',
    latest_stable_version: '',
    automation_backend: 'appium',
    os: 'Mac 14',
    device: 'iPhone 15 Simulator',
    recommended_backend_version: '2.11.0',
  },
  {
    api_name: 'android',
    long_name: 'Android GoogleAPI Emulator',
    short_version: '14.0',
    long_version: '14.0.',
    latest_stable_version: '',
    automation_backend: 'appium',
    os: 'Linux',
    device: 'Google Pixel 8 GoogleAPI Emulator',
    recommended_backend_version: '2.11.0',
  },
];

/** The list for one automation API; `all` joins them; unknown names give undefined. */
export function platformsFor(api: string): Platform[] | undefined {
  if (api === 'webdriver') return WEBDRIVER;
  if (api === 'appium') return APPIUM;
  if (api === 'all') return [...WEBDRIVER, ...APPIUM];
  return undefined;
}
