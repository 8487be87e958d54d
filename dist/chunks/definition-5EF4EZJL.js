import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-4WJ4O2DG.js";import"./chunk-K3D5RFA3.js";import"./chunk-BHH3BCEO.js";import"./chunk-CTH4CQML.js";import"./chunk-WQRZQNAC.js";import"./chunk-RHTSHGLR.js";import"./chunk-5CQVONGQ.js";import"./chunk-KJBND4MI.js";import"./chunk-YE3PJPS7.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
