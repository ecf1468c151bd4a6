// The built-in components every page's Content is given, all but Snippet (index.ts adds it): authors
// use these tags without imports. Every name here is in the catalog (catalog.ts), which says which
// props each accepts. Snippet.astro renders a snippet with this map and itself, so the two files do
// not import each other.
import CodeGroup from './mintlify/CodeGroup.astro';
import Latex from './mintlify/Latex.astro';
import Mermaid from './mintlify/Mermaid.astro';
import Prompt from './mintlify/Prompt.astro';
import RequestExample from './mintlify/RequestExample.astro';
import ResponseExample from './mintlify/ResponseExample.astro';
import Tabs from './mintlify/Tabs.astro';
import {
  Accordion, AccordionGroup, ApiMethod, Badge, Callout, Card, CardGroup, Check, Color, ColorItem, ColorRow, Column, Columns, Danger, Expandable, Frame, GitHubRepo, Icon, Info, Note, Panel, ParamField, ResponseField, Step, Steps, Tab, Tile, Tip,
  Tooltip, Tree, TreeFile, TreeFolder, Update, View, Visibility, Warning,
} from './mintlify/html-components.ts';

// MDX compiles <Tree.Folder> to a property read on Tree: the parts hang off their family.
const TreeFamily = Object.assign((...args: Parameters<typeof Tree>) => Tree(...args), Tree, { Folder: TreeFolder, File: TreeFile });
const ColorFamily = Object.assign((...args: Parameters<typeof Color>) => Color(...args), Color, { Row: ColorRow, Item: ColorItem });
// <GitHub.Repo> is the only part of its family: GitHub itself renders nothing.
const GitHubFamily = { Repo: GitHubRepo };

export const builtInComponents = {
  ApiMethod,
  Callout,
  Note,
  Tip,
  Info,
  Warning,
  Check,
  Danger,
  Card,
  CardGroup,
  Columns,
  Column,
  Tabs,
  Tab,
  Accordion,
  AccordionGroup,
  Expandable,
  Steps,
  Step,
  CodeGroup,
  RequestExample,
  ResponseExample,
  Frame,
  Icon,
  ParamField,
  ResponseField,
  Tooltip,
  Badge,
  Update,
  Panel,
  Tile,
  Tree: TreeFamily,
  Color: ColorFamily,
  GitHub: GitHubFamily,
  Visibility,
  View,
  Prompt,
  Latex,
  Mermaid,
};
